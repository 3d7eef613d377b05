import { Agent, request } from 'node:http';

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
 * about the load generator than about the server at the p99.) node:http rather than undici's
 * pool: in full runs on two cores undici's client gave B itself a worse tail (p99 20-30 × p50
 * against 10 ×).
 */
export function paced(url: string, rate: number, seconds: number, headers: Record<string, string>, verify: (status: number) => boolean): Promise<PacedResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: 256 });
  const latencies: number[] = [];
  let sent = 0;
  let errors = 0;
  let pending = 0;
  const target = new URL(url);
  return new Promise((resolve) => {
    const fire = () => {
      sent++;
      pending++;
      const started = process.hrtime.bigint();
      const req = request({ host: target.hostname, port: target.port, path: `${target.pathname}${target.search}`, agent, headers }, (res) => {
        res.resume();
        res.on('end', () => {
          latencies.push(Number(process.hrtime.bigint() - started) / 1e6);
          if (!verify(res.statusCode ?? 0)) errors++;
          pending--;
        });
      });
      req.on('error', () => {
        errors++;
        pending--;
      });
      req.end();
    };
    const startedAt = performance.now();
    const timer = setInterval(() => {
      // by elapsed time: a 1 ms interval fires less often than every millisecond
      const elapsed = Math.min(performance.now() - startedAt, seconds * 1000);
      while (sent < Math.floor((elapsed * rate) / 1000)) fire();
      if (elapsed >= seconds * 1000) {
        clearInterval(timer);
        const finish = setInterval(() => {
          if (pending > 0) return;
          clearInterval(finish);
          agent.destroy();
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
