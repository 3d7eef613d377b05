import { measureInterleaved, measurePaired, single, warmUp } from './load';

/** Each server answers at its own rate (req/s per second of a round); the calls are logged in order. */
const calls: string[] = [];
const rateOf: Record<string, number> = { 'http://b': 1000, 'http://stack': 500, 'http://r': 550, 'http://off': 1000, 'http://on': 960, 'http://traced': 800 };

jest.mock('autocannon', () => (opts: { url: string; duration: number }, done: (err: null, result: unknown) => void) => {
  calls.push(opts.url);
  const total = rateOf[opts.url] * opts.duration;
  setImmediate(() => done(null, { requests: { total }, errors: 0, timeouts: 0, latency: { p50: 1, p90: 2, p99: 3 } }));
  return { on: () => undefined };
});

const target = single({ path: () => '/', verify: () => true });

describe('measuring a scenario against its baseline', () => {
  beforeEach(() => calls.splice(0));

  it('alternates baseline and scenario rounds, after a warm-up of each', async () => {
    const r = await measurePaired('http://stack', target, 'http://b', target, { connections: 1, durationSeconds: 5 }, 2);
    expect(calls).toEqual(['http://b', 'http://stack', 'http://b', 'http://stack', 'http://b', 'http://stack']);
    expect(r.ratio).toBeCloseTo(0.5);
    expect(r.reference).toBeUndefined();
  });

  it('measures a reference as a third round of each cycle, with its own ratio to the same baseline rounds', async () => {
    const r = await measurePaired('http://stack', target, 'http://b', target, { connections: 1, durationSeconds: 5 }, 2, undefined, { url: 'http://r', target });
    expect(calls).toEqual(['http://b', 'http://stack', 'http://r', 'http://b', 'http://stack', 'http://r', 'http://b', 'http://stack', 'http://r']);
    expect(r.ratio).toBeCloseTo(0.5);
    expect(r.reference?.ratio).toBeCloseTo(0.55);
    expect(r.reference?.ratios).toHaveLength(2);
    expect(r.reference?.rps).toBe(550);
    // the scenario's own count leaves the reference's requests out, and its warm-up's
    expect(r.servedInMeasuredRounds).toBe(500 * 5 * 2);
  });

  it('measures several configurations in cycles whose order reverses every other cycle, each ratio to the first one of the same cycle', async () => {
    const metered: string[] = [];
    const meter = (name: string) => ({ start: () => metered.push(`${name} start`), stop: () => metered.push(`${name} stop`) });
    const [off, on, traced] = await measureInterleaved(
      ['off', 'on', 'traced'].map((n) => ({ url: `http://${n}`, target, meter: meter(n) })),
      { connections: 1, durationSeconds: 5 }, 3,
    );
    expect(calls).toEqual([
      'http://off', 'http://on', 'http://traced', // warm-up
      'http://off', 'http://on', 'http://traced',
      'http://traced', 'http://on', 'http://off',
      'http://off', 'http://on', 'http://traced',
    ]);
    expect(off.ratio).toBe(1);
    expect(on.ratio).toBeCloseTo(0.96);
    expect(on.ratios).toHaveLength(3);
    expect(traced.ratio).toBeCloseTo(0.8);
    expect(traced.rps).toBe(800);
    // the measured rounds of a configuration count in its meter and its requests, its warm-up apart
    expect(metered.filter((m) => m.startsWith('on '))).toEqual(Array.from({ length: 3 }, () => ['on start', 'on stop']).flat());
    expect(on.servedInMeasuredRounds).toBe(960 * 5 * 3);
    expect(on.servedInWarmUp).toBe(960 * 2);
  });

  it('warms a scenario up until its server has answered the requests asked, in 2 s rounds, outside its meter', async () => {
    const metered: string[] = [];
    const meter = { start: () => void metered.push('start'), stop: () => void metered.push('stop') };
    const r = await measurePaired('http://stack', target, 'http://b', target, { connections: 1, durationSeconds: 5, warmUp: { requests: 2500, maxSeconds: 30 } }, 1, meter);
    // the baseline's one warm-up round, the scenario's three (1 000 requests each), then the pair
    expect(calls).toEqual(['http://b', 'http://stack', 'http://stack', 'http://stack', 'http://b', 'http://stack']);
    expect(metered).toEqual(['start', 'stop']);
    expect(r.servedInMeasuredRounds).toBe(500 * 5);
  });

  it('ends a warm-up at its time limit whatever was answered', async () => {
    expect(await warmUp('http://stack', target, { connections: 1, durationSeconds: 5, warmUp: { requests: 1e9, maxSeconds: 7 } })).toBe(3 * 1000);
    expect(calls).toEqual(['http://stack', 'http://stack', 'http://stack']);
  });
});
