import { spawnSync } from 'node:child_process';
import { cpus } from 'node:os';

/**
 * Pins a process's main thread to one CPU with `taskset` (util-linux). On a two-core machine the
 * open-loop client and the server it measures otherwise take turns on one core now and then, and
 * the tail measured is the scheduler's. Returns false where it cannot pin (one core, no taskset,
 * not Linux): the measurement then runs unpinned and says so.
 */
export function pin(pid: number | undefined, cpu: number): boolean {
  if (pid === undefined || process.platform !== 'linux' || cpus().length < 2) return false;
  return spawnSync('taskset', ['-pc', String(cpu), String(pid)], { stdio: 'ignore' }).status === 0;
}

/** Lets a pinned process run on every CPU again. */
export function unpin(pid: number | undefined): void {
  if (pid === undefined || process.platform !== 'linux') return;
  spawnSync('taskset', ['-pc', `0-${cpus().length - 1}`, String(pid)], { stdio: 'ignore' });
}
