import 'reflect-metadata';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, Server, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { ConfigError, loadConfig } from '../config/load-config';
import { BaseConfig } from '../config/service-config';
import { connectNats, natsAuth, natsAuthProblems, parseNatsUrl, redactNatsUrl } from './nats-connection';

const dir = mkdtempSync(join(tmpdir(), 'plaza-nats-auth-'));
const passwordFile = join(dir, 'password');
writeFileSync(passwordFile, 'nfilepassword\n');

describe('NATS_URL credentials', () => {
  it('takes user and password out of the URL, leaving the servers bare', () => {
    expect(parseNatsUrl('nats://importer:n0pe%40x@127.0.0.1:4222')).toEqual({
      servers: ['nats://127.0.0.1:4222'],
      credentials: { user: 'importer', pass: 'n0pe@x' },
      conflicting: false,
    });
  });

  it('reads a lone user part as a token, and several servers with the same credentials', () => {
    expect(parseNatsUrl('nats://s3cret@a:4222,nats://s3cret@b:4222')).toEqual({ servers: ['nats://a:4222', 'nats://b:4222'], credentials: { token: 's3cret' }, conflicting: false });
  });

  it('leaves a URL without credentials as it is', () => {
    expect(parseNatsUrl('nats://127.0.0.1:4222, nats://other:4222')).toEqual({ servers: ['nats://127.0.0.1:4222', 'nats://other:4222'], credentials: undefined, conflicting: false });
  });

  it('shows a URL without its password or token', () => {
    expect(redactNatsUrl('nats://importer:secret@127.0.0.1:4222')).toBe('nats://importer:***@127.0.0.1:4222');
    expect(redactNatsUrl('nats://tok@a:1,nats://b:2')).toBe('nats://***@a:1,nats://b:2');
    expect(redactNatsUrl('nats://127.0.0.1:4222')).toBe('nats://127.0.0.1:4222');
  });
});

describe('NATS credentials settings', () => {
  const url = 'nats://127.0.0.1:4222';

  it('accepts none, a user with a password or a password file, a credentials file, or credentials in the URL', () => {
    expect(natsAuthProblems({ NATS_URL: url })).toEqual([]);
    expect(natsAuthProblems({ NATS_URL: url, NATS_USER: 'book', NATS_PASSWORD: 'p' })).toEqual([]);
    expect(natsAuthProblems({ NATS_URL: url, NATS_USER: 'book', NATS_PASSWORD_FILE: passwordFile })).toEqual([]);
    expect(natsAuthProblems({ NATS_URL: url, NATS_CREDENTIALS_FILE: passwordFile })).toEqual([]);
    expect(natsAuthProblems({ NATS_URL: 'nats://book:p@127.0.0.1:4222' })).toEqual([]);
  });

  it('refuses half or double credentials, and files that are not there', () => {
    expect(natsAuthProblems({ NATS_URL: url, NATS_USER: 'book' })).toEqual(['NATS_USER needs NATS_PASSWORD or NATS_PASSWORD_FILE']);
    expect(natsAuthProblems({ NATS_URL: url, NATS_PASSWORD: 'p' })).toEqual(['NATS_PASSWORD and NATS_PASSWORD_FILE need NATS_USER']);
    expect(natsAuthProblems({ NATS_URL: url, NATS_USER: 'book', NATS_PASSWORD: 'p', NATS_PASSWORD_FILE: passwordFile })).toEqual(['set NATS_PASSWORD or NATS_PASSWORD_FILE, not both']);
    expect(natsAuthProblems({ NATS_URL: 'nats://a:b@h:1', NATS_USER: 'book', NATS_PASSWORD: 'p' })).toEqual([
      'give the NATS credentials one way: in NATS_URL, as NATS_USER with NATS_PASSWORD (or NATS_PASSWORD_FILE), or as NATS_CREDENTIALS_FILE',
    ]);
    expect(natsAuthProblems({ NATS_URL: 'nats://a:b@h:1,nats://c:d@h:2' })).toEqual(['NATS_URL names different credentials for its servers']);
    expect(natsAuthProblems({ NATS_URL: url, NATS_USER: 'bo ok', NATS_PASSWORD: 'p' })).toEqual(['NATS_USER must be one word without ":", "@", "/" or ","']);
    expect(natsAuthProblems({ NATS_URL: url, NATS_USER: 'book', NATS_PASSWORD_FILE: join(dir, 'nope') })).toEqual([`NATS_PASSWORD_FILE: no file ${join(dir, 'nope')}`]);
  });

  it('gives nats.js the user and password, a password file read without its line end, or the URL\'s', () => {
    expect(natsAuth({ NATS_URL: url, NATS_USER: 'book', NATS_PASSWORD: 'p' })).toEqual({ servers: [url], options: { user: 'book', pass: 'p', inboxPrefix: '_INBOX_book' }, who: 'user book' });
    expect(natsAuth({ NATS_URL: url, NATS_USER: 'book', NATS_PASSWORD_FILE: passwordFile }).options).toEqual({ user: 'book', pass: 'nfilepassword', inboxPrefix: '_INBOX_book' });
    expect(natsAuth({ NATS_URL: 'nats://importer:x@127.0.0.1:4222' })).toEqual({ servers: [url], options: { user: 'importer', pass: 'x', inboxPrefix: '_INBOX_importer' }, who: 'user importer' });
    expect(natsAuth({ NATS_URL: 'nats://tok@127.0.0.1:4222' }).options).toEqual({ token: 'tok' });
    expect(natsAuth({ NATS_URL: url })).toEqual({ servers: [url], options: {}, who: 'no credentials' });
    expect(() => natsAuth({ NATS_URL: url, NATS_USER: 'book' })).toThrow('NATS credentials: NATS_USER needs NATS_PASSWORD or NATS_PASSWORD_FILE');
  });

  it('is part of every app\'s configuration: a process with unusable credentials refuses to start', () => {
    expect(loadConfig(BaseConfig, { NATS_USER: 'gateway', NATS_PASSWORD: 'p' })).toMatchObject({ NATS_USER: 'gateway', NATS_PASSWORD: 'p' });
    expect(loadConfig(BaseConfig, {})).toMatchObject({ NATS_URL: 'nats://127.0.0.1:4222', NATS_USER: undefined });
    expect(() => loadConfig(BaseConfig, { NATS_USER: 'gateway' })).toThrow(ConfigError);
    expect(() => loadConfig(BaseConfig, { NATS_PASSWORD: 'p' })).toThrow('NATS_PASSWORD and NATS_PASSWORD_FILE need NATS_USER');
  });
});

describe('connectNats', () => {
  let server: Server;
  let port: number;
  const connects: string[] = [];
  const sockets = new Set<Socket>();

  beforeAll(async () => {
    // a NATS server that refuses every CONNECT, as nats-server refuses unknown credentials
    server = createServer((socket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.write(`INFO ${JSON.stringify({ server_id: 'fake', version: '2.12.0', proto: 1, max_payload: 1048576, auth_required: true })}\r\n`);
      socket.on('data', (data) => {
        const text = data.toString();
        const connect = /^CONNECT (.*)\r\n/m.exec(text);
        if (connect) {
          connects.push(connect[1]);
          socket.write("-ERR 'Authorization Violation'\r\n");
          socket.end();
        }
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as { port: number }).port;
  });
  afterAll(async () => {
    for (const s of sockets) s.destroy();
    await new Promise((resolve) => server.close(resolve));
  });

  it('sends the credentials and fails at once, naming the user, when the server refuses them', async () => {
    const logger = pino({ level: 'silent' });
    const started = Date.now();
    await expect(connectNats({ NATS_URL: `nats://127.0.0.1:${port}`, NATS_USER: 'book', NATS_PASSWORD: 'nwrong' }, 'test', logger)).rejects.toThrow(
      `NATS at nats://127.0.0.1:${port} refused user book (Authorization Violation): check NATS_USER and NATS_PASSWORD`,
    );
    expect(Date.now() - started).toBeLessThan(5000);
    expect(JSON.parse(connects[0])).toMatchObject({ user: 'book', pass: 'nwrong', name: 'test' });
  });

  it('sends the credentials of the URL, not the URL itself', async () => {
    connects.length = 0;
    await expect(connectNats({ NATS_URL: `nats://importer:nimp@127.0.0.1:${port}` }, 'test', pino({ level: 'silent' }))).rejects.toThrow(/refused user importer/);
    expect(JSON.parse(connects[0])).toMatchObject({ user: 'importer', pass: 'nimp' });
  });
});

describe('connectNats after a password change', () => {
  it('exits once NATS refuses the credentials it connected with, so that the orchestrator restarts it with the current ones', async () => {
    // accepts the first connection, drops it, then refuses every later one (NATS restarted with another password)
    let accepted = false;
    const sockets = new Set<Socket>();
    const server = createServer((socket) => {
      sockets.add(socket);
      socket.write(`INFO ${JSON.stringify({ server_id: 'fake', version: '2.12.0', proto: 1, max_payload: 1048576, auth_required: true })}\r\n`);
      socket.on('data', (data) => {
        const text = data.toString();
        if (!/^CONNECT /m.test(text)) {
          if (/^PING/m.test(text)) socket.write('PONG\r\n');
          return;
        }
        if (accepted) {
          socket.end("-ERR 'Authorization Violation'\r\n");
          return;
        }
        accepted = true;
        socket.write('PONG\r\n');
        setTimeout(() => socket.destroy(), 50);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as { port: number }).port;
    const exited = new Promise<number | undefined>((resolve) => {
      jest.spyOn(process, 'exit').mockImplementation(((code?: number) => resolve(code)) as never);
    });
    try {
      const nc = await connectNats({ NATS_URL: `nats://127.0.0.1:${port}`, NATS_USER: 'book', NATS_PASSWORD: 'nold' }, 'test', pino({ level: 'silent' }));
      await expect(exited).resolves.toBe(1);
      expect(nc.isClosed()).toBe(true);
    } finally {
      jest.restoreAllMocks();
      for (const s of sockets) s.destroy();
      await new Promise((resolve) => server.close(resolve));
    }
  }, 15_000);
});
