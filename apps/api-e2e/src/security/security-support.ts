import { readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { user } from '../support/fixtures';
import { ApiResponse } from '../support/http';
import { stackInfo } from '../support/stack-info';

/**
 * Users and records of fixtures/security.ndjson (ids 7000s), one group per suite so the
 * security suites run beside each other and beside the area suites without sharing writes.
 */
export const SecUsers = {
  // authorization-matrix
  owner: user('7001', 'sec_owner', 'Owner 主人'),
  intruder: user('7002', 'sec_intruder', 'Intruder'),
  /** The owner's friend; takes part in the owner's private event 70001. */
  friend: user('7003', 'sec_friend', 'Friend'),
  commenter: user('7004', 'sec_commenter', 'Commenter'),
  // operator-injection
  injOwner: user('7011', 'sec_inj_owner', 'Injection Owner'),
  injIntruder: user('7012', 'sec_inj_intruder', 'Injection Intruder'),
  // hostile-bodies, pictures
  hostile: user('7021', 'sec_hostile', 'Hostile'),
  // headers-cors-jsonp
  headers: user('7031', 'sec_headers', 'Headers'),
};

export const SecBooks = { matrix: '7100001', injection: '7100002', hostile: '7100003' };
/** Private events (is_priv yes) owned by `owner` and `injOwner`. */
export const SecEvents = { matrix: '70001', injection: '70002' };

/**
 * Text every record hidden from the intruders carries (private notes, annotations, collection
 * comments and tags, private events): an answer to an intruder that contains it leaked data.
 */
export const CANARY = { matrix: 'zzhidden7001', injection: 'zzhidden7011' };

/** A 1×1 PNG, a 1×1 GIF and a 1×1 WebP. */
export const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');
export const GIF = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');
export const WEBP = Buffer.from('UklGRiQAAABXRUJQVlA4IBgAAAAwAQCdASoBAAEAAwA0JaQAA3AA/vuUAAA=', 'base64');

/** A multipart body whose picture parts carry the file name and declared type given (which must not matter). */
export function pictureForm(fields: Record<string, string>, files: Record<string, { bytes: Buffer; name: string; type: string }>): FormData {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.set(k, v);
  for (const [k, f] of Object.entries(files)) form.set(k, new Blob([new Uint8Array(f.bytes)], { type: f.type }), f.name);
  return form;
}

/** Headers helmet sets on every answer (docs/DECISIONS.md "Shapes and conventions"). */
export function expectSecurityHeaders(headers: Headers): void {
  expect({
    nosniff: headers.get('x-content-type-options'),
    frame: headers.get('x-frame-options'),
    csp: headers.get('content-security-policy')?.includes("default-src 'none'"),
    referrer: headers.get('referrer-policy'),
    poweredBy: headers.get('x-powered-by'),
  }).toEqual({ nosniff: 'nosniff', frame: 'DENY', csp: true, referrer: 'no-referrer', poweredBy: null });
}

/** What no error body may contain: stack frames, file paths, driver and bus messages. */
const INTERNALS = [
  /\bat [\w.<>]+ \(/, // a stack frame
  /\/(work|home|usr|app|src|node_modules)\//,
  /\.(ts|js):\d+/,
  /Mongo|mongoose|FerretDB|E11000|BSON/i,
  /\bNATS\b|nats:\/\/|NO_RESPONDERS|\bTIMEOUT\b|\b[a-z]+\.v\d+\.[a-z]/, // bus errors and message subjects
  /TypeError|RangeError|ReferenceError|SyntaxError|Cannot read propert/,
  /FST_|ERR_|HPE_|statusCode/,
];

/** Fails when a body shows a stack frame, a file path, or a driver's or the bus's words. */
export function expectNoInternals(text: string): void {
  for (const pattern of INTERNALS) expect(text).not.toMatch(pattern);
}

/** An error in the shape of docs/api/README.md, "Errors" (`{msg, code, request}`, nothing else but OAuth's two fields) that reveals nothing internal. */
export function expectCleanError(res: Pick<ApiResponse, 'status' | 'text' | 'body'>, status?: number, code?: number): void {
  if (status !== undefined) expect({ status: res.status, code: res.body?.code }).toEqual({ status, code });
  expect(res.status).toBeGreaterThanOrEqual(400);
  expect(res.status).toBeLessThan(500);
  const body = typeof res.body === 'object' && res.body !== null ? (res.body as Record<string, unknown>) : JSON.parse(res.text);
  expect(typeof body.msg).toBe('string');
  expect(typeof body.code).toBe('number');
  expect(typeof body.request).toBe('string');
  expect(Object.keys(body).filter((k) => !['msg', 'code', 'request', 'error', 'error_description'].includes(k))).toEqual([]);
  expectNoInternals(res.text);
}

/**
 * Bytes as they are, on a socket of their own: requests no HTTP client library would send.
 * The server may answer and close before it has read everything (a body over the limit), so a
 * write error after an answer arrived is not a failure.
 */
export function rawRequest(bytes: Buffer | string, timeoutMs = 5000): Promise<{ status: number; headers: Record<string, string>; body: string }> {
  const { hostname, port } = new URL(stackInfo().baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.end(bytes));
    const chunks: Buffer[] = [];
    socket.setTimeout(timeoutMs, () => socket.destroy(new Error('no answer in time')));
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', (err) => {
      if (chunks.length === 0) reject(err);
    });
    socket.on('close', () => {
      if (chunks.length === 0) return reject(new Error('connection closed without an answer'));
      const text = Buffer.concat(chunks).toString('utf8');
      const [head, ...rest] = text.split('\r\n\r\n');
      const [statusLine, ...lines] = head.split('\r\n');
      const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body: rest.join('\r\n\r\n') });
    });
  });
}

export interface Route {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
}

/**
 * Every route of the public interface, read from the gateway's sources: the endpoint table and
 * the routes registered outside it (`registerExtraRoute`, OAuth and health). The e2e project may
 * not import an app (module boundaries), so the files are read as text; a suite driven by this
 * list fails when a route is added without a row of its own.
 */
export function gatewayRoutes(): Route[] {
  const src = join(__dirname, '..', '..', '..', 'gateway', 'src');
  const table = readFileSync(join(src, 'endpoints', 'endpoint-table.ts'), 'utf8');
  const routes = [...table.matchAll(/method: '(GET|POST|PUT|DELETE)', path: '([^']+)'/g)].map((m) => ({ method: m[1], path: m[2] }) as Route);
  for (const file of ['auth2/auth2.controller.ts', 'health/gateway-health.controller.ts']) {
    const text = readFileSync(join(src, file), 'utf8');
    for (const m of text.matchAll(/registerExtraRoute\('(GET|POST|PUT|DELETE)', '([^']+)'\)/g)) routes.push({ method: m[1], path: m[2] } as Route);
  }
  return routes;
}

export const routeKey = (r: Route) => `${r.method} ${r.path}`;

/** Milliseconds a request took, with its response. */
export async function timed<T>(send: () => Promise<T>): Promise<{ ms: number; res: T }> {
  const started = Date.now();
  const res = await send();
  return { ms: Date.now() - started, res };
}
