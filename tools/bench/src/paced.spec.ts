import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { medianPaced, paced, PACED_CONNECTIONS } from './paced';

/** A real local HTTP server whose answers the test shapes. */
async function serve(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<{ url: string; server: Server }> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

describe('paced (open-loop client)', () => {
  let server: Server | undefined;
  afterEach(async () => {
    const running = server;
    server = undefined;
    if (!running) return;
    running.closeAllConnections();
    await new Promise((resolve) => running.close(resolve));
  });

  it('sends what the rate owes, with the headers asked, and checks each answer', async () => {
    const seen: string[] = [];
    const s = await serve((req, res) => {
      seen.push(String(req.headers.authorization));
      res.end(req.url === '/ok?x=1' ? '{"id":"7"}' : 'no');
    });
    server = s.server;
    const result = await paced(`${s.url}/ok?x=1`, 400, 1, { authorization: 'Bearer t' }, (status, body) => status === 200 && body.includes('"id":"7"'));
    expect(result.sent).toBe(400);
    expect(result.errors).toBe(0);
    expect(seen).toHaveLength(400);
    expect(new Set(seen)).toEqual(new Set(['Bearer t']));
    expect(result.p50).toBeGreaterThan(0);
    expect(result.p99).toBeGreaterThanOrEqual(result.p50);
  });

  it('counts answers that fail the check as errors', async () => {
    let n = 0;
    const s = await serve((_req, res) => {
      res.statusCode = ++n % 4 === 0 ? 500 : 200;
      res.end('x');
    });
    server = s.server;
    const result = await paced(s.url, 200, 1, {}, (status) => status === 200);
    expect(result.sent).toBe(200);
    expect(result.errors).toBe(50);
  });

  it('charges a slow server for the requests that waited for a free connection (no coordinated omission)', async () => {
    // every answer takes 200 ms: the pool carries 64 / 0.2 s = 320 requests a second, 500 are due
    const s = await serve((_req, res) => setTimeout(() => res.end('ok'), 200));
    server = s.server;
    const result = await paced(s.url, 500, 1, {}, (status) => status === 200);
    expect(PACED_CONNECTIONS).toBe(64);
    expect(result.errors).toBe(0);
    expect(result.p50).toBeGreaterThanOrEqual(200);
    // the last requests were due ~0.56 s before a connection freed up for them
    expect(result.p99).toBeGreaterThan(500);
  });

  it('counts a request lost with its connection as an error, and goes on with a new connection', async () => {
    let n = 0;
    const s = await serve((req, res) => {
      if (++n === 10) return req.socket.destroy();
      res.end('ok');
    });
    server = s.server;
    const result = await paced(s.url, 100, 1, {}, (status) => status === 200);
    expect(result.sent).toBe(100);
    expect(result.errors).toBe(1);
  });

  it('fails at once when the server cannot be reached', async () => {
    const s = await serve((_req, res) => res.end('ok'));
    const url = s.url;
    await new Promise((resolve) => s.server.close(resolve));
    await expect(paced(url, 100, 1, {}, () => true)).rejects.toThrow(/ECONNREFUSED/);
  });

  it('reports the median of each figure over rounds and the sum of errors', () => {
    const round = (p50: number, p99: number, errors: number) => ({ rate: 10, sent: 10, errors, p50, p99 });
    expect(medianPaced([round(1, 9, 0), round(3, 5, 1), round(2, 7, 2)])).toEqual({ rate: 10, sent: 10, errors: 3, p50: 2, p99: 7 });
  });
});
