import { Pool } from 'undici';

export interface PacedResult {
  rate: number;
  sent: number;
  errors: number;
  p50: number;
  p99: number;
}

/**
 * Open-loop load at a steady rate: every millisecond sends the requests the elapsed time owes,
 * whatever the answers do, and each latency is timed in microseconds. (autocannon's fixed rate
 * releases a second's worth of requests in bursts and reports whole milliseconds, which says more
 * about the load generator than about the server at the p99.) The client is undici's pool, which
 * costs about half the CPU per request of node:http's: on two cores the load generator shares the
 * machine with the server it measures, and every cycle it spends shows up in the server's tail.
 */
export function paced(url: string, rate: number, seconds: number, headers: Record<string, string>, verify: (status: number) => boolean): Promise<PacedResult> {
  const target = new URL(url);
  const pool = new Pool(target.origin, { connections: 128, pipelining: 1 });
  const path = `${target.pathname}${target.search}`;
  const latencies: number[] = [];
  let sent = 0;
  let errors = 0;
  let pending = 0;
  return new Promise((resolve) => {
    const fire = () => {
      sent++;
      pending++;
      const started = process.hrtime.bigint();
      pool.request({ method: 'GET', path, headers }).then(
        async (res) => {
          await res.body.dump();
          latencies.push(Number(process.hrtime.bigint() - started) / 1e6);
          if (!verify(res.statusCode)) errors++;
          pending--;
        },
        () => {
          errors++;
          pending--;
        },
      );
    };
    const startedAt = performance.now();
    const timer = setInterval(() => {
      const elapsed = Math.min(performance.now() - startedAt, seconds * 1000);
      while (sent < Math.floor((elapsed * rate) / 1000)) fire();
      if (elapsed >= seconds * 1000) {
        clearInterval(timer);
        const finish = setInterval(() => {
          if (pending > 0) return;
          clearInterval(finish);
          void pool.close();
          const sorted = latencies.sort((a, b) => a - b);
          const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
          resolve({ rate, sent, errors, p50: at(0.5), p99: at(0.99) });
        }, 20);
      }
    }, 1);
  });
}

/** The median of each figure over rounds (errors summed). */
export function medianPaced(runs: PacedResult[]): PacedResult {
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
  return {
    rate: runs[0]?.rate ?? 0,
    sent: median(runs.map((r) => r.sent)),
    errors: runs.reduce((a, r) => a + r.errors, 0),
    p50: median(runs.map((r) => r.p50)),
    p99: median(runs.map((r) => r.p99)),
  };
}
