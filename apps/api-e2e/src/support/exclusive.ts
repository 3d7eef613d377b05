import { mkdirSync, rmdirSync } from 'node:fs';
import { join } from 'node:path';
import { stackInfo } from './stack-info';

/**
 * Locks shared by the e2e workers of one run (a directory in the run's data folder: `mkdir` is
 * atomic, and a new run starts from a new folder, so no lock outlives its run).
 *
 * Used where suites running side by side would see each other's writes: the annotation and
 * note picture suites count the pictures in the shared object store to prove that failed
 * writes leave none behind, so any other suite that stores pictures of that area holds the
 * same lock while it does.
 */
export type LockName = 'book-pictures' | 'note-pictures';

export async function acquire(name: LockName, timeoutMs = 180_000): Promise<() => void> {
  const dir = join(stackInfo().dataDir, `lock-${name}`);
  const started = Date.now();
  for (;;) {
    try {
      mkdirSync(dir);
      return () => rmdirSync(dir);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      if (Date.now() - started > timeoutMs) throw new Error(`lock ${name} not released within ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

/** Runs `work` holding the lock. */
export async function exclusive<T>(name: LockName, work: () => Promise<T>): Promise<T> {
  const release = await acquire(name);
  try {
    return await work();
  } finally {
    release();
  }
}
