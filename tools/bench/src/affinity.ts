import { spawnSync } from 'node:child_process';
import { cpus } from 'node:os';

/**
 * Pins every thread of a process to one CPU with `taskset -a` (util-linux). On a two-core machine
 * the open-loop client and the server it measures otherwise take turns on one core now and then,
 * and the tail measured is the scheduler's. All threads, not just the main one: a scheduler trace
 * showed the client's garbage-collector helpers running on the server's CPU for 4–8 ms at a time.
 * Returns false where it cannot pin (one core, no taskset, not Linux): the measurement then runs
 * unpinned and says so.
 */
export function pin(pid: number | undefined, cpu: number): boolean {
  if (pid === undefined || process.platform !== 'linux' || cpus().length < 2) return false;
  return spawnSync('taskset', ['-a', '-pc', String(cpu), String(pid)], { stdio: 'ignore' }).status === 0;
}

/** Lets a pinned process run on every CPU again. */
export function unpin(pid: number | undefined): void {
  if (pid === undefined || process.platform !== 'linux') return;
  spawnSync('taskset', ['-a', '-pc', `0-${cpus().length - 1}`, String(pid)], { stdio: 'ignore' });
}
