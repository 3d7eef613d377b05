import { ApiError } from '@plaza/contracts';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { missingServices, runImport } from './run-import';

const dir = mkdtempSync(join(tmpdir(), 'plaza-importer-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function catalogue(): string {
  const file = join(dir, 'records.ndjson');
  writeFileSync(file, `${JSON.stringify({ kind: 'book', id: '1000001', title: 'x' })}\n`);
  return file;
}

/** A port nothing listens on: bound, then closed. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

function capture() {
  let out = '';
  let err = '';
  return {
    stdout: { write: (t: string) => (out += t) },
    stderr: { write: (t: string) => (err += t) },
    out: () => out,
    err: () => err,
  };
}

describe('runImport when it cannot start', () => {
  it('says within seconds that NATS cannot be reached, names the address and NATS_URL, and exits 2', async () => {
    const port = await closedPort();
    const io = capture();
    const started = Date.now();
    const code = await runImport({ file: catalogue(), env: { NATS_URL: `nats://127.0.0.1:${port}` }, ...io });
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(code).toBe(2);
    expect(io.err()).toContain(`cannot reach NATS at nats://127.0.0.1:${port}`);
    expect(io.err()).toContain('connection refused');
    expect(io.err()).toContain('NATS_URL=');
    expect(io.out()).toBe('');
  }, 15_000);

  it('gives up on a port that accepts connections but never speaks NATS', async () => {
    const sockets: Array<import('node:net').Socket> = [];
    const silent: Server = createServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as { port: number };
    try {
      const io = capture();
      const started = Date.now();
      const code = await runImport({ file: catalogue(), env: { NATS_URL: `nats://127.0.0.1:${port}` }, ...io, connectTimeoutMs: 1000 });
      expect(Date.now() - started).toBeLessThan(5000);
      expect(code).toBe(2);
      expect(io.err()).toContain(`cannot reach NATS at nats://127.0.0.1:${port}`);
      expect(io.err()).toContain('no NATS answer within 1 s');
    } finally {
      for (const s of sockets) s.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  }, 15_000);

  it('names the default address when NATS_URL is not set', async () => {
    const io = capture();
    const code = await runImport({
      file: catalogue(),
      env: {},
      ...io,
      connect: () => Promise.reject(Object.assign(new Error('CONNECTION_REFUSED'), { code: 'CONNECTION_REFUSED' })),
    });
    expect(code).toBe(2);
    expect(io.err()).toContain('cannot reach NATS at nats://127.0.0.1:4222 (NATS_URL is not set');
  });

  it('exits 2 with the usage when the file is missing', async () => {
    const io = capture();
    expect(await runImport({ file: '/no/such/file.ndjson', env: {}, ...io })).toBe(2);
    expect(io.err()).toMatch(/^usage: npm run import -- FILE.ndjson \(no such file/);
  });
});

describe('missingServices', () => {
  it('lists each service that does not answer its ping, with the reason', async () => {
    const bus = {
      request: jest.fn(async (message: { subject: string }) => {
        if (message.subject === 'movie.v1.health.ping') throw new ApiError('service_unavailable', 'no instance answers movie.v1.health.ping');
        if (message.subject === 'event.v1.health.ping') throw new ApiError('service_timeout', 'event.v1.health.ping did not answer in time');
        return { service: 'x', instance: 'y', ready: true };
      }),
    };
    const missing = await missingServices(bus as never, ['identity', 'book', 'movie', 'event'], 1000);
    expect(missing).toEqual([
      { service: 'movie', reason: 'no instance answers movie.v1.health.ping' },
      { service: 'event', reason: 'event.v1.health.ping did not answer in time' },
    ]);
    expect(bus.request).toHaveBeenCalledWith(expect.objectContaining({ subject: 'book.v1.health.ping' }), {}, { timeout: 1000 });
  });
});
