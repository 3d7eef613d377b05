import { findNatsServer, freePort, ManagedProcess, portAcceptsConnections, waitFor } from '@plaza/stack';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { root } from './launcher';

/**
 * `npm run import -- FILE` that cannot start says so within seconds, naming the address it tried
 * and NATS_URL, and exits non-zero (it used to wait forever, silent).
 */
const dir = mkdtempSync(join(tmpdir(), 'plaza-import-unreachable-'));
const file = join(dir, 'records.ndjson');
writeFileSync(file, `${JSON.stringify({ kind: 'book', id: '1000001', title: 'x' })}\n`);

function importer(natsUrl: string) {
  const started = Date.now();
  const result = spawnSync(process.execPath, [join(root, 'apps/importer/dist/main.js'), file], { env: { ...process.env, NATS_URL: natsUrl }, encoding: 'utf8', timeout: 30_000 });
  return { status: result.status, stderr: result.stderr, seconds: (Date.now() - started) / 1000 };
}

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('npm run import when it cannot reach the stack', () => {
  it('NATS_URL at a closed port: exits 2 within seconds, naming the address', async () => {
    const port = await freePort();
    const result = importer(`nats://127.0.0.1:${port}`);
    expect(result.status).toBe(2);
    expect(result.seconds).toBeLessThan(10);
    expect(result.stderr).toContain(`cannot reach NATS at nats://127.0.0.1:${port}`);
    expect(result.stderr).toContain('NATS_URL');
  });

  it('NATS up but no service: exits 2 within seconds, naming the service and the address', async () => {
    const binary = findNatsServer();
    if (!binary) throw new Error('nats-server is not installed (npm test installs it in its setup step)');
    const port = await freePort();
    const nats = new ManagedProcess('nats', { command: binary, args: ['-a', '127.0.0.1', '-p', String(port)], logFile: join(dir, 'nats.log') }).start();
    try {
      await waitFor(`nats-server on ${port}`, () => portAcceptsConnections(port), 20_000);
      const result = importer(`nats://127.0.0.1:${port}`);
      expect(result.status).toBe(2);
      expect(result.seconds).toBeLessThan(10);
      expect(result.stderr).toContain(`the book service does not answer on NATS at nats://127.0.0.1:${port}`);
    } finally {
      await nats.stop();
    }
  });
});
