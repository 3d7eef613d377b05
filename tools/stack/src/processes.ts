import { ChildProcess, spawn } from 'node:child_process';
import { createWriteStream, mkdirSync, readFileSync, WriteStream } from 'node:fs';
import { createServer, Socket } from 'node:net';
import { dirname } from 'node:path';

export interface ProcessSpec {
  command: string;
  args: string[];
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  logFile: string;
}

/** How much of a run's output ManagedProcess keeps in memory. */
const RECENT_OUTPUT_CHARS = 8192;
/** How long after its exit a process's output may still arrive before it counts as ended. */
const OUTPUT_DRAIN_MS = 1000;

/**
 * Every child still running, signalled when this process exits however it exits: a tool that
 * dies of an uncaught exception (a load generator's own throw, say) runs no `finally`, and its
 * stack would otherwise go on running, orphaned, under the next measurement.
 */
const running = new Set<ChildProcess>();
process.on('exit', () => {
  for (const child of running) child.kill('SIGTERM');
});

/** A child process whose output goes to a log file, which can be stopped gracefully or killed. */
export class ManagedProcess {
  private child?: ChildProcess;
  private log?: WriteStream;
  private exitPromise?: Promise<number | null>;
  /** The end of this run's output, kept in memory: why it exited, even before the log file is flushed. */
  private recentOutput = '';
  /** Set once the process has exited and its output has been read to the end. */
  lastExitCode: number | null | undefined;

  constructor(readonly name: string, readonly spec: ProcessSpec) {}

  start(): this {
    if (this.running) return this;
    mkdirSync(dirname(this.spec.logFile), { recursive: true });
    this.log = createWriteStream(this.spec.logFile, { flags: 'a' });
    const child = spawn(this.spec.command, this.spec.args, {
      cwd: this.spec.cwd,
      env: { ...process.env, ...this.spec.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    running.add(child);
    child.once('exit', () => running.delete(child));
    this.recentOutput = '';
    for (const stream of [child.stdout, child.stderr]) {
      stream?.pipe(this.log, { end: false });
      stream?.on('data', (chunk: Buffer) => (this.recentOutput = (this.recentOutput + chunk.toString()).slice(-RECENT_OUTPUT_CHARS)));
    }
    this.lastExitCode = undefined;
    this.exitPromise = new Promise((resolve) => {
      let settled = false;
      const settle = (code: number | null) => {
        if (settled) return;
        settled = true;
        // a run that was started again meanwhile keeps its own state
        if (this.child === child) this.lastExitCode = code;
        resolve(code);
      };
      child.once('exit', (code, signal) => {
        this.log?.write(`\n[stack] ${this.name} exited code=${code} signal=${signal}\n`);
        // its last words may still be in the pipes: settled once they are read ('close'), or
        // shortly after if something it started holds them open
        child.once('close', () => settle(code));
        setTimeout(() => settle(code), OUTPUT_DRAIN_MS).unref();
      });
      child.once('error', (err) => {
        this.log?.write(`\n[stack] ${this.name} failed to start: ${err.message}\n`);
        settle(null);
      });
    });
    return this;
  }

  /**
   * Whether this run ended because `port` was taken when it tried to listen on it: Node's
   * `listen EADDRINUSE: address already in use 127.0.0.1:PORT` and Go's
   * `listen tcp 127.0.0.1:PORT: bind: address already in use` alike.
   */
  exitedBecausePortTaken(port: number): boolean {
    if (this.running || this.lastExitCode === undefined) return false;
    return /address already in use/.test(this.recentOutput) && new RegExp(`:${port}\\b`).test(this.recentOutput);
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  get running(): boolean {
    return Boolean(this.child && this.child.exitCode === null && this.child.signalCode === null);
  }

  /** Resolves with the exit code once the process has ended. */
  exited(): Promise<number | null> {
    return this.exitPromise ?? Promise.resolve(this.lastExitCode ?? null);
  }

  /** SIGTERM, then SIGKILL after `timeoutMs`. Resolves with the exit code (null when killed). */
  async stop(timeoutMs = 15_000): Promise<number | null> {
    if (!this.running) return this.lastExitCode ?? null;
    this.child!.kill('SIGTERM');
    const timer = setTimeout(() => this.child?.kill('SIGKILL'), timeoutMs);
    const code = await this.exited();
    clearTimeout(timer);
    return code;
  }

  /** Sudden death (SIGKILL), as a crash or an OOM kill would do. */
  async kill(): Promise<void> {
    if (!this.running) return;
    this.child!.kill('SIGKILL');
    await this.exited();
  }

  signal(sig: NodeJS.Signals): void {
    this.child?.kill(sig);
  }

  tail(lines = 30): string {
    try {
      return readFileSync(this.spec.logFile, 'utf8').split('\n').slice(-lines).join('\n');
    } catch {
      return '';
    }
  }
}

/** Ports this process handed out: two stacks starting at once must not be given the same one. */
const handedOut = new Set<number>();

/** Below Linux's ephemeral range (32768-60999), which outgoing connections take their ports from. */
const PORT_RANGE = { from: 20_000, size: 12_000 };

function bindable(port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(port, '127.0.0.1', () => {
      const address = server.address();
      const bound = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(bound));
    });
  });
}

/**
 * A port nothing listens on, for a process about to be started. Chosen below the ephemeral range:
 * a port the kernel picks (`listen(0)`) is one it may give, before the child binds it, to any
 * outgoing connection on the machine (a stack's own driver connections included). Never the
 * same port twice in one process.
 */
export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = PORT_RANGE.from + Math.floor(Math.random() * PORT_RANGE.size);
    if (handedOut.has(port)) continue;
    // reserved before the check: a call made meanwhile must not try the same port
    handedOut.add(port);
    if (await bindable(port).catch(() => 0)) return port;
    handedOut.delete(port);
  }
  const bound = await bindable(0);
  handedOut.add(bound);
  return bound;
}

export function portAcceptsConnections(port: number, host = '127.0.0.1'): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = new Socket();
    socket.setTimeout(500);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => resolve(false));
    socket.connect(port, host);
  });
}

/** Thrown when start-up is interrupted (Ctrl-C): what was started has been, or is being, stopped. */
export class InterruptedError extends Error {
  constructor(message = 'interrupted') {
    super(message);
    this.name = 'InterruptedError';
  }
}

export async function waitFor(
  description: string,
  condition: () => Promise<boolean>,
  timeoutMs: number,
  failFast?: () => string | undefined,
  signal?: AbortSignal,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (signal?.aborted) throw new InterruptedError();
    if (await condition().catch(() => false)) return;
    const failure = failFast?.();
    if (failure) throw new Error(`${description}: ${failure}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${description}`);
}

/**
 * Runs tasks side by side. The first failure aborts the others (through the signal each task
 * gets), and is thrown once every task has settled, so nothing a task started is left running
 * unseen by its caller's clean-up. Aborting `parent` aborts them all.
 */
export async function allOrAbort<T extends readonly unknown[]>(
  tasks: { [K in keyof T]: (signal: AbortSignal) => Promise<T[K]> },
  parent?: AbortSignal,
): Promise<T> {
  const local = new AbortController();
  const signal = parent ? AbortSignal.any([parent, local.signal]) : local.signal;
  let first: { error: unknown } | undefined;
  const settled = await Promise.allSettled(
    (tasks as unknown as Array<(s: AbortSignal) => Promise<unknown>>).map(async (task) => {
      try {
        return await task(signal);
      } catch (error) {
        if (!first) {
          first = { error };
          local.abort();
        }
        throw error;
      }
    }),
  );
  if (first) throw first.error;
  return settled.map((r) => (r as PromiseFulfilledResult<unknown>).value) as unknown as T;
}

export async function httpStatus(url: string, timeoutMs = 1000): Promise<number> {
  const response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
  await response.arrayBuffer();
  return response.status;
}

/** CPU time a process has used so far (user + system), in microseconds, from /proc (Linux); undefined if it cannot be read. */
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
