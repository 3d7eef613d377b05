import { CpuMeter, cpuMicrosOf, memoryOf } from './proc';

const burn = (ms: number) => {
  const until = Date.now() + ms;
  let x = 0;
  while (Date.now() < until) x += Math.sqrt(x + 1);
  return x;
};

describe('reading a process from /proc', () => {
  it('reads memory and CPU of a live process, nothing of a missing one', () => {
    expect(memoryOf(process.pid)?.rss).toBeGreaterThan(0);
    expect(cpuMicrosOf(process.pid)).toBeGreaterThan(0);
    expect(memoryOf(undefined)).toBeUndefined();
    expect(cpuMicrosOf(2 ** 22 + 7)).toBeUndefined();
  });

  it('counts CPU only between start and stop, and divides it by the requests', () => {
    const meter = new CpuMeter(new Map([['me', process.pid]]));
    meter.start();
    burn(300);
    meter.stop();
    burn(300); // not counted
    const perRequest = meter.perRequest(100).me;
    // 300 ms of CPU over 100 requests is ~3000 µs each (ticks are 10 ms)
    expect(perRequest).toBeGreaterThanOrEqual(2000);
    expect(perRequest).toBeLessThanOrEqual(4500);
  });
});
