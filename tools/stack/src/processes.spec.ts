import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { allOrAbort, cpuMicrosOf, freePort, InterruptedError, waitFor } from './processes';

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(new InterruptedError());
    });
  });

describe('allOrAbort', () => {
  it('gives every result in order', async () => {
    expect(await allOrAbort<[number, string]>([async () => 1, async () => 'two'])).toEqual([1, 'two']);
  });

  it('aborts the others at the first failure and throws it once all have settled', async () => {
    const settled: string[] = [];
    const failing = allOrAbort<[void, void]>([
      async () => {
        await sleep(20);
        settled.push('failed');
        throw new Error('first failure');
      },
      async (signal) => {
        await sleep(10_000, signal).finally(() => settled.push('aborted'));
      },
    ]);
    await expect(failing).rejects.toThrow('first failure');
    expect(settled).toEqual(['failed', 'aborted']);
  });

  it('passes an abort of its parent to every task', async () => {
    const parent = new AbortController();
    const run = allOrAbort<[void, void]>([(s) => sleep(10_000, s), (s) => sleep(10_000, s)], parent.signal);
    parent.abort();
    await expect(run).rejects.toBeInstanceOf(InterruptedError);
  });
});

describe('freePort', () => {
  it('gives ports below the ephemeral range, never the same one twice, even when asked at once', async () => {
    const ports = await Promise.all(Array.from({ length: 40 }, () => freePort()));
    expect(new Set(ports).size).toBe(40);
    for (const port of ports) {
      expect(port).toBeGreaterThanOrEqual(20_000);
      expect(port).toBeLessThan(32_768);
    }
  });
});

describe('waitFor', () => {
  it('stops waiting when aborted', async () => {
    const abort = new AbortController();
    setTimeout(() => abort.abort(), 50);
    await expect(waitFor('never', async () => false, 10_000, undefined, abort.signal)).rejects.toBeInstanceOf(InterruptedError);
  });

  it('fails early with what failFast says', async () => {
    await expect(waitFor('the engine', async () => false, 10_000, () => 'it exited')).rejects.toThrow('the engine: it exited');
  });

  it('times out with the description', async () => {
    await expect(waitFor('port 1', async () => false, 100)).rejects.toThrow('timed out after 100 ms waiting for port 1');
  });
});

describe('cpuMicrosOf', () => {
  it('reads the CPU a live process has used, nothing of a missing one', () => {
    expect(cpuMicrosOf(process.pid)).toBeGreaterThan(0);
    expect(cpuMicrosOf(undefined)).toBeUndefined();
    expect(cpuMicrosOf(2 ** 22 + 7)).toBeUndefined();
  });
});

describe('ManagedProcess', () => {
  // a tool that dies of an uncaught exception runs no `finally`: its children must not outlive it
  it('signals its running children when the process that started them exits, however it exits', async () => {
    const dist = join(__dirname, '..', 'dist', 'processes.js');
    if (!existsSync(dist)) throw new Error(`${dist} is missing: build first (npm run build)`);
    const dir = mkdtempSync(join(tmpdir(), 'plaza-orphan-'));
    const script = `
      const { ManagedProcess } = require(${JSON.stringify(dist)});
      const child = new ManagedProcess('sleeper', { command: process.execPath, args: ['-e', 'setInterval(() => {}, 1000)'], logFile: ${JSON.stringify(join(dir, 'sleeper.log'))} }).start();
      process.stdout.write(String(child.pid) + '\\n');
      setTimeout(() => { throw new Error('an uncaught failure'); }, 200);`;
    const parent = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'ignore'] });
    let out = '';
    parent.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => parent.once('exit', resolve));
    expect(code).not.toBe(0);
    const pid = Number(out.trim());
    expect(pid).toBeGreaterThan(0);
    const alive = () => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    };
    for (let i = 0; i < 50 && alive(); i++) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(alive()).toBe(false);
    rmSync(dir, { recursive: true, force: true });
  });
});
