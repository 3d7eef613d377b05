import autocannon from 'autocannon';

export interface LoadOptions {
  connections: number;
  durationSeconds: number;
  /** Fixed request rate (requests per second over all connections); unset = as fast as possible. */
  rate?: number;
}

export interface Target {
  /** Builds the next request's path (with query); called for every request. */
  path: () => string;
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  headers?: () => Record<string, string>;
  body?: () => string | undefined;
  /** Checks a response; a false makes the request count as an error. */
  verify: (status: number, body: string) => boolean;
}

export interface RoundResult {
  rps: number;
  p50: number;
  p90: number;
  p99: number;
  p999: number;
  errors: number;
  requests: number;
}

/**
 * One load round with autocannon: fixed connections, no pipelining, every response body checked,
 * so fast errors can never inflate the numbers (a failed check is an error, not a request served).
 */
export function runRound(baseUrl: string, target: Target, options: LoadOptions): Promise<RoundResult> {
  let failed = 0;
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: baseUrl,
        connections: options.connections,
        duration: options.durationSeconds,
        pipelining: 1,
        ...(options.rate ? { overallRate: options.rate } : {}),
        requests: [
          {
            method: target.method ?? 'GET',
            setupRequest: (req: Record<string, unknown>) => ({
              ...req,
              path: target.path(),
              method: target.method ?? 'GET',
              headers: { ...(target.headers?.() ?? {}) },
              body: target.body?.(),
            }),
            onResponse: (status: number, body: string) => {
              if (!target.verify(status, body)) failed++;
            },
          },
        ],
      } as unknown as autocannon.Options,
      (err, result) => {
        if (err) return reject(err);
        const completed = result.requests.total;
        resolve({
          rps: Math.max(0, (completed - failed - result.errors - result.timeouts) / options.durationSeconds),
          p50: result.latency.p50,
          p90: result.latency.p90,
          p99: result.latency.p99,
          p999: result.latency.p99_9 ?? result.latency.p99,
          errors: failed + result.errors + result.timeouts + result.non2xx - countExpectedNon2xx(target),
          requests: completed,
        });
      },
    );
    instance.on('error', reject);
  });
}

/** Non-2xx answers a target expects (none by default): 304s, say, are verified by `verify`. */
function countExpectedNon2xx(_target: Target): number {
  return 0;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};

/** A warm-up round (discarded), then `rounds` rounds; reports the median of each figure. */
export async function measure(baseUrl: string, target: Target, options: LoadOptions, rounds: number): Promise<RoundResult> {
  await runRound(baseUrl, target, { ...options, durationSeconds: Math.min(3, options.durationSeconds) });
  const results: RoundResult[] = [];
  for (let i = 0; i < rounds; i++) results.push(await runRound(baseUrl, target, options));
  return {
    rps: median(results.map((r) => r.rps)),
    p50: median(results.map((r) => r.p50)),
    p90: median(results.map((r) => r.p90)),
    p99: median(results.map((r) => r.p99)),
    p999: median(results.map((r) => r.p999)),
    errors: results.reduce((a, r) => a + r.errors, 0),
    requests: results.reduce((a, r) => a + r.requests, 0),
  };
}
