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

/** CPU time a process has used so far (user + system), in microseconds, from /proc (Linux). */
export function cpuMicrosOf(pid: number | undefined): number | undefined {
  if (!pid) return undefined;
  try {
    // the fields after the command name, which is in parentheses and may hold spaces
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    // utime and stime (fields 14 and 15) count clock ticks of USER_HZ, 100 a second on Linux
    return (Number(fields[11]) + Number(fields[12])) * 10_000;
  } catch {
    return undefined;
  }
}

/**
 * CPU each process spent per request while `run` loaded the stack: what the request cost,
 * process by process (the load generator's and the kernel's share are not in it).
 */
export async function cpuPerRequest<T>(
  pids: Map<string, number | undefined>, run: () => Promise<T>, requestsOf: (result: T) => number,
): Promise<{ result: T; micros: Record<string, number> }> {
  const before = new Map([...pids].map(([name, pid]) => [name, cpuMicrosOf(pid)]));
  const result = await run();
  const requests = requestsOf(result);
  const micros: Record<string, number> = {};
  for (const [name, pid] of pids) {
    const start = before.get(name);
    const end = cpuMicrosOf(pid);
    if (start !== undefined && end !== undefined && requests > 0) micros[name] = (end - start) / requests;
  }
  return { result, micros };
}
