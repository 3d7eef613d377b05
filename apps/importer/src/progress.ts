/**
 * Progress of a long import: records done of total, rate and time left. In a terminal one line is
 * rewritten in place (`\r`); elsewhere (CI logs, `npm start` piped to a file) a plain line is
 * written every few seconds, so a log shows the import is alive without filling up.
 */

/** What a progress line says. */
export interface ProgressState {
  done: number;
  total: number;
  failed: number;
  /** Records per second, when known. */
  rate?: number;
}

const count = (n: number) => Math.round(n).toLocaleString('en-US');

/** `8 s`, `1 min 05 s`, `2 h 03 min`. */
export function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, '0')} s`;
  return `${Math.floor(s / 3600)} h ${String(Math.floor((s % 3600) / 60)).padStart(2, '0')} min`;
}

/** `4,200 of 9,870 records (42%), 350/s, about 16 s left` (and `, 3 failed` when some did). */
export function formatProgress({ done, total, failed, rate }: ProgressState): string {
  const percent = total > 0 ? Math.floor((100 * done) / total) : 100;
  const parts = [`${count(done)} of ${count(total)} records (${percent}%)`];
  if (rate !== undefined && Number.isFinite(rate) && rate > 0) {
    parts.push(`${count(rate)}/s`);
    if (done < total) parts.push(`about ${formatDuration((total - done) / rate)} left`);
  }
  if (failed > 0) parts.push(`${count(failed)} failed`);
  return parts.join(', ');
}

/** Where progress goes: a writable with, for a terminal, `isTTY` and `columns` (process.stdout). */
export interface ProgressOutput {
  write(text: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

export interface ProgressOptions {
  /** A terminal rewrites one line; anything else gets plain lines. Default: `output.isTTY`. */
  tty?: boolean;
  /** Plain mode: at most one line per this many ms (default 5000). */
  plainIntervalMs?: number;
  /** Terminal mode: at most one redraw per this many ms (default 200). */
  ttyIntervalMs?: number;
  /** The rate is measured over about this much recent time (default 10 s), as kinds differ in cost. */
  windowMs?: number;
  now?: () => number;
}

/** Reports one import's progress; `update` may be called as often as wanted, it throttles itself. */
export class Progress {
  private readonly tty: boolean;
  private readonly started: number;
  private readonly samples: Array<{ at: number; done: number }> = [];
  private lastShown = Number.NEGATIVE_INFINITY;
  private lineShown = false;
  private state: ProgressState;
  private readonly now: () => number;

  constructor(
    private readonly output: ProgressOutput,
    total: number,
    private readonly options: ProgressOptions = {},
  ) {
    this.tty = options.tty ?? Boolean(output.isTTY);
    this.now = options.now ?? (() => Date.now());
    this.started = this.now();
    this.state = { done: 0, total, failed: 0 };
    this.samples.push({ at: this.started, done: 0 });
  }

  /** Records per second over the recent window (over the whole run until the window has filled). */
  rate(): number | undefined {
    const at = this.now();
    const windowMs = this.options.windowMs ?? 10_000;
    while (this.samples.length > 2 && at - this.samples[1].at >= windowMs) this.samples.shift();
    const first = this.samples[0];
    const seconds = (at - first.at) / 1000;
    if (seconds < 0.5) return undefined;
    return (this.state.done - first.done) / seconds;
  }

  update(done: number, failed = 0): void {
    this.state = { ...this.state, done, failed };
    const at = this.now();
    this.samples.push({ at, done });
    const interval = this.tty ? (this.options.ttyIntervalMs ?? 200) : (this.options.plainIntervalMs ?? 5000);
    if (at - this.lastShown < interval) return;
    // plain mode's first line comes one interval in: a short import stays quiet
    if (!this.tty && this.lastShown === Number.NEGATIVE_INFINITY) {
      this.lastShown = this.started;
      if (at - this.started < interval) return;
    }
    this.lastShown = at;
    this.show(formatProgress({ ...this.state, rate: this.rate() }));
  }

  /** The last word: the final count, the average rate and the time taken, on a line of its own. */
  finish(): string {
    const seconds = (this.now() - this.started) / 1000;
    const { done, total, failed } = this.state;
    const rate = seconds > 0 ? done / seconds : undefined;
    const line = `${formatProgress({ done, total, failed })} in ${formatDuration(seconds)}${rate && seconds >= 1 ? ` (${count(rate)}/s)` : ''}`;
    this.clear();
    this.output.write(`${line}\n`);
    return line;
  }

  /** Removes the terminal line (before other output, or when the import fails). */
  clear(): void {
    if (this.tty && this.lineShown) this.output.write('\r\x1b[K');
    this.lineShown = false;
  }

  private show(line: string): void {
    if (this.tty) {
      // one screen line: a wrapped line could not be rewritten with \r
      const width = Math.max(20, (this.output.columns ?? 80) - 1);
      this.output.write(`\r${line.length > width ? line.slice(0, width) : line}\x1b[K`);
      this.lineShown = true;
    } else {
      this.output.write(`${line}\n`);
    }
  }
}
