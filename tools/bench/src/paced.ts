import { HTTPParser } from 'http-parser-js';
import { connect, Socket } from 'node:net';
import { median } from './load';

export interface PacedResult {
  rate: number;
  sent: number;
  errors: number;
  p50: number;
  p99: number;
}

/** Connections opened before the clock starts; more than the load ever keeps in flight when the server keeps up. */
export const PACED_CONNECTIONS = 64;
/** A round waits this long for its last answers before counting them as errors. */
const DRAIN_MS = 10_000;

interface Connection {
  socket: Socket;
  parser: InstanceType<typeof HTTPParser>;
  /** hrtime (ns) when the request now on this connection was due; undefined when idle. */
  due?: bigint;
  status: number;
  body: Buffer[];
}

/**
 * Open-loop load at a steady rate: every millisecond the requests the elapsed time owes are sent
 * on a fixed pool of keep-alive connections, whatever the answers do. A request that finds every
 * connection busy waits in a queue and its latency counts from when it was due, so a server that
 * stalls is charged for the requests it held up (no "coordinated omission"). Each latency is timed
 * in microseconds.
 *
 * Why not autocannon (used for every other scenario): its fixed rate releases a second's worth of
 * requests per connection in bursts and it reports whole milliseconds. Why not node:http: at
 * 13,000 requests a second its client needs a whole core (its event loop lagged 10 ms at the p99),
 * and on a two-core machine that client's own queueing became most of the p99 it measured, B's
 * included. Raw sockets with a prebuilt request and http-parser-js (autocannon's own parser) cost
 * a third of that.
 */
export async function paced(
  url: string,
  rate: number,
  seconds: number,
  headers: Record<string, string>,
  verify: (status: number, body: Buffer) => boolean,
): Promise<PacedResult> {
  const target = new URL(url);
  const request = Buffer.from(
    [`GET ${target.pathname}${target.search} HTTP/1.1`, `Host: ${target.host}`, ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`), '', ''].join('\r\n'),
  );
  // preallocated: a growing array of 70,000 latencies was garbage the client collected mid-round
  const latencies = new Float64Array(Math.ceil(rate * seconds) + 1);
  let counted = 0;
  const idle: Connection[] = [];
  const waiting: bigint[] = [];
  const pool: Connection[] = [];
  let sent = 0;
  let answered = 0;
  let errors = 0;
  let closing = false;

  const send = (c: Connection, due: bigint) => {
    c.due = due;
    c.body = [];
    c.socket.write(request);
  };
  const next = (c: Connection) => {
    const due = waiting.shift();
    if (due === undefined) idle.push(c);
    else send(c, due);
  };
  const open = (): Promise<Connection> =>
    new Promise((resolve, reject) => {
      const socket = connect(Number(target.port), target.hostname);
      socket.setNoDelay(true);
      const parser = new HTTPParser(HTTPParser.RESPONSE);
      const c: Connection = { socket, parser, status: 0, body: [] };
      parser[HTTPParser.kOnHeadersComplete] = (info: { statusCode: number }) => {
        c.status = info.statusCode;
      };
      parser[HTTPParser.kOnBody] = (chunk: Buffer, start: number, length: number) => {
        c.body.push(chunk.subarray(start, start + length));
      };
      parser[HTTPParser.kOnMessageComplete] = () => {
        if (c.due === undefined) return;
        latencies[counted++] = Number(process.hrtime.bigint() - c.due) / 1e6;
        if (!verify(c.status, c.body.length === 1 ? c.body[0] : Buffer.concat(c.body))) errors++;
        c.due = undefined;
        answered++;
        next(c);
      };
      socket.on('data', (data: Buffer) => parser.execute(data));
      // errors after the connection is made end in 'close', below
      socket.on('error', reject);
      socket.once('connect', () => {
        resolve(c);
        // a connection the server closed loses the request it carried, and is replaced (once: a
        // server that refuses new connections leaves the pool smaller, not a reconnect loop)
        socket.once('close', () => {
          if (closing) return;
          if (c.due !== undefined) {
            errors++;
            answered++;
          }
          pool.splice(pool.indexOf(c), 1);
          const at = idle.indexOf(c);
          if (at >= 0) idle.splice(at, 1);
          open().then((fresh) => {
            pool.push(fresh);
            next(fresh);
          }, () => undefined);
        });
      });
    });

  for (let i = 0; i < PACED_CONNECTIONS; i++) pool.push(await open());
  idle.push(...pool);

  await new Promise<void>((resolve) => {
    const startedAt = performance.now();
    const timer = setInterval(() => {
      // by elapsed time: a 1 ms interval fires less often than every millisecond
      const elapsed = Math.min(performance.now() - startedAt, seconds * 1000);
      const now = process.hrtime.bigint();
      while (sent < Math.floor((elapsed * rate) / 1000)) {
        sent++;
        const c = idle.pop();
        if (c) send(c, now);
        else waiting.push(now);
      }
      if (elapsed >= seconds * 1000) {
        clearInterval(timer);
        const deadline = Date.now() + DRAIN_MS;
        const finish = setInterval(() => {
          if (answered < sent && Date.now() < deadline) return;
          clearInterval(finish);
          resolve();
        }, 20);
      }
    }, 1);
  });
  closing = true;
  for (const c of pool) c.socket.destroy();
  errors += sent - answered;

  const sorted = latencies.subarray(0, counted).sort();
  const at = (q: number) => sorted[Math.min(counted - 1, Math.floor(q * counted))] ?? 0;
  return { rate, sent, errors, p50: at(0.5), p99: at(0.99) };
}

/** The median of each figure over rounds (errors summed). */
export function medianPaced(runs: PacedResult[]): PacedResult {
  return {
    rate: runs[0]?.rate ?? 0,
    sent: median(runs.map((r) => r.sent)),
    errors: runs.reduce((a, r) => a + r.errors, 0),
    p50: median(runs.map((r) => r.p50)),
    p99: median(runs.map((r) => r.p99)),
  };
}
