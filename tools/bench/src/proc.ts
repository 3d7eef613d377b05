import { readFileSync } from 'node:fs';
import { cpuMicrosOf } from '@plaza/stack';

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

/**
 * Waits until the processes together have used at most `quietMicros` of CPU over the last
 * `windowMs` (idle: done loading, nothing left to collect), or `maxMs` has passed; returns how
 * long it waited.
 */
export async function untilQuiet(pids: Array<number | undefined>, { windowMs = 5000, quietMicros = 250_000, maxMs = 60_000 } = {}): Promise<number> {
  const started = Date.now();
  const total = () => pids.reduce<number>((sum, pid) => sum + (cpuMicrosOf(pid) ?? 0), 0);
  const samples: Array<[number, number]> = [[Date.now(), total()]];
  while (Date.now() - started < maxMs) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    const now: [number, number] = [Date.now(), total()];
    samples.push(now);
    const since = samples.find(([at]) => now[0] - at <= windowMs) ?? now;
    if (now[0] - samples[0][0] >= windowMs && now[1] - since[1] <= quietMicros) break;
  }
  return Date.now() - started;
}

/**
 * Counts the CPU each process spends while it runs, over the spans it is started and stopped for
 * (a scenario's own rounds, not its baseline's): divided by the requests served in those spans,
 * what a request cost, process by process. The load generator's and the kernel's share are not in it.
 */
export class CpuMeter {
  private readonly spent = new Map<string, number>();
  private startedAt?: Map<string, number | undefined>;

  constructor(private readonly pids: Map<string, number | undefined>) {}

  start(): void {
    this.startedAt = new Map([...this.pids].map(([name, pid]) => [name, cpuMicrosOf(pid)]));
  }

  stop(): void {
    for (const [name, pid] of this.pids) {
      const start = this.startedAt?.get(name);
      const end = cpuMicrosOf(pid);
      if (start !== undefined && end !== undefined) this.spent.set(name, (this.spent.get(name) ?? 0) + end - start);
    }
    this.startedAt = undefined;
  }

  perRequest(requests: number): Record<string, number> {
    return Object.fromEntries([...this.spent].map(([name, micros]) => [name, requests > 0 ? micros / requests : 0]));
  }
}

/**
 * CPU per request of one server under open-loop load, by offered load (a fraction of its maximum
 * rate): rounds at the same fraction add up, in a CpuMeter of their own.
 */
export class OpenLoopCost {
  private readonly byFraction = new Map<number, { meter: CpuMeter; sent: number }>();

  constructor(private readonly pid: number | undefined) {}

  async measure<R extends { sent: number }>(fraction: number, round: () => Promise<R>): Promise<R> {
    let load = this.byFraction.get(fraction);
    if (!load) this.byFraction.set(fraction, (load = { meter: new CpuMeter(new Map([['server', this.pid]])), sent: 0 }));
    load.meter.start();
    try {
      const result = await round();
      load.sent += result.sent;
      return result;
    } finally {
      load.meter.stop();
    }
  }

  at(fraction: number): number | undefined {
    const load = this.byFraction.get(fraction);
    return load && load.sent > 0 ? load.meter.perRequest(load.sent).server : undefined;
  }

  /** Every fraction measured, heaviest load first. */
  points(): Array<{ fraction: number; micros: number | undefined }> {
    return [...this.byFraction.keys()].sort((a, b) => b - a).map((fraction) => ({ fraction, micros: this.at(fraction) }));
  }
}
