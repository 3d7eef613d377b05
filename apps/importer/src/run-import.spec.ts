import { ApiError } from '@plaza/contracts';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { missingServices, natsSettings, runImport } from './run-import';

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

describe('runImport with NATS credentials', () => {
  /** A NATS server that refuses every CONNECT, as nats-server refuses unknown credentials; records what it was sent. */
  async function refusingNats(): Promise<{ port: number; connects: Array<Record<string, unknown>>; close(): Promise<void> }> {
    const connects: Array<Record<string, unknown>> = [];
    const sockets = new Set<import('node:net').Socket>();
    const server = createServer((socket) => {
      sockets.add(socket);
      socket.write(`INFO ${JSON.stringify({ server_id: 'fake', version: '2.12.0', proto: 1, max_payload: 1048576, auth_required: true })}\r\n`);
      socket.on('data', (data) => {
        const connect = /^CONNECT (.*)\r\n/m.exec(data.toString());
        if (!connect) return;
        connects.push(JSON.parse(connect[1]) as Record<string, unknown>);
        socket.end("-ERR 'Authorization Violation'\r\n");
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    return {
      port,
      connects,
      close: async () => {
        for (const s of sockets) s.destroy();
        await new Promise((resolve) => server.close(resolve));
      },
    };
  }

  it('sends the credentials of NATS_URL, and says that they were refused without showing the password', async () => {
    const nats = await refusingNats();
    try {
      const io = capture();
      const code = await runImport({ file: catalogue(), env: { NATS_URL: `nats://importer:nsecret@127.0.0.1:${nats.port}` }, ...io });
      expect(code).toBe(2);
      expect(nats.connects[0]).toMatchObject({ user: 'importer', pass: 'nsecret' });
      expect(io.err()).toContain(`cannot reach NATS at nats://127.0.0.1:${nats.port} as user importer (from NATS_URL): it refused the credentials (Authorization Violation)`);
      expect(io.err()).toContain('NATS_USER=importer');
      expect(io.err()).not.toContain('nsecret');
    } finally {
      await nats.close();
    }
  }, 15_000);

  it('sends NATS_USER and NATS_PASSWORD', async () => {
    const nats = await refusingNats();
    try {
      const io = capture();
      await runImport({ file: catalogue(), env: { NATS_URL: `nats://127.0.0.1:${nats.port}`, NATS_USER: 'importer', NATS_PASSWORD: 'nother' }, ...io });
      expect(nats.connects[0]).toMatchObject({ user: 'importer', pass: 'nother' });
    } finally {
      await nats.close();
    }
  }, 15_000);

  it('refuses half credentials before connecting', async () => {
    const io = capture();
    const connect = jest.fn();
    expect(await runImport({ file: catalogue(), env: { NATS_USER: 'importer' }, ...io, connect })).toBe(2);
    expect(io.err()).toBe('NATS credentials: NATS_USER needs NATS_PASSWORD or NATS_PASSWORD_FILE\n');
    expect(connect).not.toHaveBeenCalled();
  });

  it('reads the names the apps use', () => {
    expect(natsSettings({ NATS_URL: 'nats://h:1', NATS_USER: 'importer', NATS_PASSWORD_FILE: '/run/secrets/p', NATS_PASSWORD: '' })).toEqual({
      NATS_URL: 'nats://h:1',
      NATS_USER: 'importer',
      NATS_PASSWORD: undefined,
      NATS_PASSWORD_FILE: '/run/secrets/p',
      NATS_CREDENTIALS_FILE: undefined,
    });
    expect(natsSettings({}).NATS_URL).toBe('nats://127.0.0.1:4222');
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
