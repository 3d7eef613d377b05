import { readFileSync } from 'node:fs';

export interface Memory {
  /** Resident set size now, in MiB. */
  rss: number;
  /** Peak resident set size since start (VmHWM), in MiB. */
  peak: number;
}

/** Reads a process's memory from /proc (Linux). */
export function memoryOf(pid: number | undefined): Memory | undefined {
  if (!pid) return undefined;
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0);
    return { rss: Math.round(kb('VmRSS') / 1024), peak: Math.round(kb('VmHWM') / 1024) };
  } catch {
    return undefined;
  }
}
