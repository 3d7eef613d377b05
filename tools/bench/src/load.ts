import autocannon from 'autocannon';

export interface LoadOptions {
  connections: number;
  durationSeconds: number;
  /** Fixed request rate (requests per second over all connections); unset = as fast as possible. */
  rate?: number;
  /** How a scenario measured against a baseline warms up before its rounds (default: one round of at most 2 s). */
  warmUp?: WarmUp;
}

/**
 * A scenario's warm-up: rounds of at most 2 s until its server has answered `requests` (at least one
 * round, at most `maxSeconds`). V8 optimises a function once it has run often enough, so a warm-up
 * is counted in requests, not seconds: the write mix stayed below its steady rate for its first
 * 15 s, about 3 400 requests (docs/PERFORMANCE.md, "Measuring it"), while a cached read answers
 * some 30 000 in its first 2 s round.
 */
export interface WarmUp {
  requests: number;
  maxSeconds: number;
}

const WARM_UP_ROUND_SECONDS = 2;

/** What is measured around each of a scenario's rounds (CPU by process, database commands). */
export interface RoundMeter {
  start(): void | Promise<void>;
  stop(): void | Promise<void>;
}

/** Runs `target` at `options`' load until the warm-up's end; returns the requests it answered. */
export async function warmUp(baseUrl: string, target: Target, options: LoadOptions): Promise<number> {
  const round = { ...options, durationSeconds: Math.min(WARM_UP_ROUND_SECONDS, options.durationSeconds) };
  const until = options.warmUp ?? { requests: 0, maxSeconds: 0 };
  let served = 0;
  let seconds = 0;
  do {
    served += (await runRound(baseUrl, target, round)).requests;
    seconds += round.durationSeconds;
  } while (served < until.requests && seconds + round.durationSeconds <= until.maxSeconds);
  return served;
}

/** Per-connection state: a step may pick a user, remember an id from a response, and so on. */
export type Context = Record<string, unknown>;

export interface Step {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: (ctx: Context) => string;
  headers?: (ctx: Context) => Record<string, string>;
  body?: (ctx: Context) => string | undefined;
  /** Checks a response; false makes the request count as an error, not as a request served. */
  verify: (status: number, body: string, ctx: Context) => boolean;
}

/** What each connection sends, in order and repeated: one step for reads, several for a write mix. */
export interface Target {
  steps: Step[];
}

export const single = (step: Step): Target => ({ steps: [step] });

export interface RoundResult {
  rps: number;
  p50: number;
  p90: number;
  p99: number;
  p999: number;
  errors: number;
  requests: number;
  /** The first few failures (what was asked, what came back), to say what an error was. */
  failures?: string[];
}

/**
 * One load round with autocannon: fixed connections, no pipelining, every response checked, so
 * fast errors can never inflate the numbers: req/s counts verified answers only.
 */
export function runRound(baseUrl: string, target: Target, options: LoadOptions): Promise<RoundResult> {
  let failed = 0;
  const failures: string[] = [];
  return new Promise((resolve, reject) => {
    const requests = target.steps.map((step) => ({
      method: step.method ?? 'GET',
      setupRequest: (req: Record<string, unknown>, ctx: Context) => ({
        ...req,
        method: step.method ?? 'GET',
        path: step.path(ctx),
        headers: { ...(step.headers?.(ctx) ?? {}) },
        body: step.body?.(ctx),
      }),
      onResponse: (status: number, body: string, ctx: Context) => {
        if (step.verify(status, body, ctx)) return;
        failed++;
        if (failures.length < 5) failures.push(`${step.method ?? 'GET'} → ${status} ${body.slice(0, 120)}`);
      },
    }));
    const instance = autocannon(
      {
        url: baseUrl,
        connections: options.connections,
        duration: options.durationSeconds,
        pipelining: 1,
        timeout: 10,
        ...(options.rate ? { overallRate: options.rate } : {}),
        requests,
      } as unknown as autocannon.Options,
      (err: Error | null, result: autocannon.Result) => {
        if (err) return reject(err);
        const completed = result.requests.total;
        const errors = failed + result.errors + result.timeouts;
        resolve({
          rps: Math.max(0, (completed - failed) / options.durationSeconds),
          p50: result.latency.p50,
          p90: result.latency.p90,
          p99: result.latency.p99,
          p999: (result.latency as unknown as Record<string, number>).p99_9 ?? result.latency.p99,
          errors,
          requests: completed,
          failures: [...failures, ...(result.timeouts > 0 ? [`${result.timeouts} timed out (no answer in 10 s)`] : []), ...(result.errors > result.timeouts ? [`${result.errors - result.timeouts} connection errors`] : [])],
        });
      },
    );
    instance.on('error', reject);
  });
}

/** The middle value (the upper one of an even count). */
export const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** A warm-up (discarded: `warmUp`), then `rounds` rounds; reports the median of each figure. */
export async function measure(
  baseUrl: string, target: Target, options: LoadOptions, rounds: number,
  /** Started and stopped around the measured rounds (a CpuMeter); the warm-up is not in it. */
  meter?: { start(): void; stop(): void },
): Promise<RoundResult> {
  await warmUp(baseUrl, target, options);
  const results: RoundResult[] = [];
  meter?.start();
  try {
    for (let i = 0; i < rounds; i++) results.push(await runRound(baseUrl, target, options));
  } finally {
    meter?.stop();
  }
  return medianOf(results);
}

function medianOf(results: RoundResult[]): RoundResult {
  return {
    rps: median(results.map((r) => r.rps)),
    p50: median(results.map((r) => r.p50)),
    p90: median(results.map((r) => r.p90)),
    p99: median(results.map((r) => r.p99)),
    p999: median(results.map((r) => r.p999)),
    errors: results.reduce((a, r) => a + r.errors, 0),
    requests: results.reduce((a, r) => a + r.requests, 0),
    failures: results.flatMap((r) => r.failures ?? []).slice(0, 5),
  };
}

export interface PairedResult extends RoundResult {
  /** The scenario's req/s over the baseline's, round by round; the median of these. */
  ratio: number;
  ratios: number[];
  /** Requests the scenario's server answered in its measured rounds (the warm-up's not). */
  servedInMeasuredRounds: number;
  /** The reference measured in the same cycles, if one was given: its rounds and its ratios to the baseline. */
  reference?: RoundResult & { ratio: number; ratios: number[] };
}

/** Another server of the same scenario, measured in each cycle right after the scenario's round. */
export interface Reference {
  url: string;
  target: Target;
}

/**
 * A scenario measured against its baseline in alternating rounds (baseline, scenario, baseline,
 * scenario, ...), each ratio taken from a pair of adjacent rounds. The speed of this machine drifts
 * by a third from minute to minute (other tenants of the host); a ratio of two measurements taken
 * minutes apart would mostly measure that drift. A reference (the same answers from a bare
 * server) joins each cycle as a third round, so its ratio is taken in the same minutes too.
 */
export async function measurePaired(
  url: string, target: Target, baselineUrl: string, baseline: Target, options: LoadOptions, rounds: number,
  /** Started and stopped around the scenario's measured rounds, its warm-up left out (a CpuMeter, a CommandMeter). */
  meter?: RoundMeter,
  reference?: Reference,
): Promise<PairedResult> {
  const baselineWarmUp = { ...options, durationSeconds: Math.min(WARM_UP_ROUND_SECONDS, options.durationSeconds) };
  const ownRound = async (o: LoadOptions) => {
    await meter?.start();
    try {
      return await runRound(url, target, o);
    } finally {
      await meter?.stop();
    }
  };
  const ratio = (r: RoundResult, base: RoundResult) => (base.rps > 0 ? r.rps / base.rps : 0);
  await runRound(baselineUrl, baseline, baselineWarmUp);
  await warmUp(url, target, options);
  if (reference) await runRound(reference.url, reference.target, baselineWarmUp);
  const results: RoundResult[] = [];
  const ratios: number[] = [];
  const referenceResults: RoundResult[] = [];
  const referenceRatios: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const base = await runRound(baselineUrl, baseline, options);
    const own = await ownRound(options);
    results.push(own);
    ratios.push(ratio(own, base));
    if (reference) {
      const ref = await runRound(reference.url, reference.target, options);
      referenceResults.push(ref);
      referenceRatios.push(ratio(ref, base));
    }
  }
  return {
    ...medianOf(results),
    ratio: median(ratios),
    ratios,
    servedInMeasuredRounds: results.reduce((a, r) => a + r.requests, 0),
    ...(reference ? { reference: { ...medianOf(referenceResults), ratio: median(referenceRatios), ratios: referenceRatios } } : {}),
  };
}

/** One of several servers of the same scenario measured in the same cycles. */
export interface Contender {
  url: string;
  target: Target;
  /** Started and stopped around this contender's measured rounds, its warm-up left out (a CpuMeter). */
  meter?: { start(): void; stop(): void };
}

export interface InterleavedResult extends RoundResult {
  /** This contender's req/s over the first contender's in the same cycle, cycle by cycle; the median of these. */
  ratio: number;
  ratios: number[];
  /** Requests this contender answered in its measured rounds (the warm-up's not). */
  servedInMeasuredRounds: number;
  /** Requests it answered in its warm-up. */
  servedInWarmUp: number;
}

/**
 * Several servers of one scenario (the same stack in different configurations) measured in cycles
 * of one round each, every ratio taken to the first contender's round of the same cycle, as
 * measurePaired does for two. Every other cycle runs in the reverse order (a, b, c, then c, b, a):
 * a machine slowing down or speeding up during a cycle favours no contender for being first.
 */
export async function measureInterleaved(contenders: Contender[], options: LoadOptions, rounds: number): Promise<InterleavedResult[]> {
  const round = async (c: Contender, o: LoadOptions) => {
    c.meter?.start();
    try {
      return await runRound(c.url, c.target, o);
    } finally {
      c.meter?.stop();
    }
  };
  const served = contenders.map(() => 0);
  const servedInWarmUp: number[] = [];
  for (const c of contenders) servedInWarmUp.push(await warmUp(c.url, c.target, options));
  const results: RoundResult[][] = contenders.map(() => []);
  const ratios: number[][] = contenders.map(() => []);
  for (let cycle = 0; cycle < rounds; cycle++) {
    const order = contenders.map((_, i) => i);
    if (cycle % 2 === 1) order.reverse();
    const inCycle: RoundResult[] = [];
    for (const i of order) inCycle[i] = await round(contenders[i], options);
    for (const [i, r] of inCycle.entries()) {
      results[i].push(r);
      served[i] += r.requests;
      ratios[i].push(inCycle[0].rps > 0 ? r.rps / inCycle[0].rps : 0);
    }
  }
  return contenders.map((_, i) => ({ ...medianOf(results[i]), ratio: median(ratios[i]), ratios: ratios[i], servedInMeasuredRounds: served[i], servedInWarmUp: servedInWarmUp[i] }));
}
