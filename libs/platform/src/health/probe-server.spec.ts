import type { Server } from 'node:http';
import { probePortOf, startProbeServer } from './probe-server';

describe('startProbeServer', () => {
  let server: Server;
  let ready = true;
  const url = (path: string) => `http://127.0.0.1:${probePortOf(server)}${path}`;

  beforeAll(async () => {
    server = await startProbeServer('127.0.0.1', 0, {
      health: () => ({ status: 'ok', service: 'book' }),
      ready: async () => ({ ok: ready, body: { service: 'book', status: ready ? 'ok' : 'unavailable' } }),
    });
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  it('answers /health with the process’s own answer, never cached', async () => {
    const res = await fetch(url('/health'));
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(await res.json()).toEqual({ status: 'ok', service: 'book' });
  });

  it('answers /ready with 200 or 503 as its dependencies stand', async () => {
    ready = true;
    expect((await fetch(url('/ready'))).status).toBe(200);
    ready = false;
    const res = await fetch(url('/ready?probe=1'));
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({ service: 'book', status: 'unavailable' });
  });

  it('refuses other methods and paths', async () => {
    expect((await fetch(url('/health'), { method: 'POST' })).status).toBe(405);
    expect((await fetch(url('/v2/book/1'))).status).toBe(404);
  });
});
