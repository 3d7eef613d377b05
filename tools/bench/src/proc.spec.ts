import { CpuMeter, memoryOf, OpenLoopCost } from './proc';

/** Spends `ms` of this process's CPU time (not wall time: on a busy machine the two differ). */
const burn = (ms: number) => {
  const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };
  const until = cpu() + ms;
  let x = 0;
  while (cpu() < until) x += Math.sqrt(x + 1);
  return x;
};

describe('reading a process from /proc', () => {
  it('reads memory of a live process, nothing of a missing one', () => {
    expect(memoryOf(process.pid)?.rss).toBeGreaterThan(0);
    expect(memoryOf(undefined)).toBeUndefined();
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

  it('adds up the rounds of each offered load and divides by what they sent', async () => {
    const cost = new OpenLoopCost(process.pid);
    await cost.measure(0.5, async () => ({ sent: 100, cpu: burn(200) }));
    await cost.measure(0.5, async () => ({ sent: 100, cpu: burn(200) }));
    await cost.measure(0.1, async () => ({ sent: 10, cpu: burn(100) }));
    // 400 ms over 200 requests: ~2000 µs each; 100 ms over 10: ~10 000 µs each
    expect(cost.at(0.5)).toBeGreaterThanOrEqual(1400);
    expect(cost.at(0.5)).toBeLessThanOrEqual(2800);
    expect(cost.at(0.1)).toBeGreaterThanOrEqual(7000);
    expect(cost.at(0.1)).toBeLessThanOrEqual(14000);
    expect(cost.at(0.25)).toBeUndefined();
    expect(cost.points().map((p) => p.fraction)).toEqual([0.5, 0.1]);
  });
});
