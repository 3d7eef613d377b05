import { portAcceptsConnections } from '@plaza/stack';
import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import { join } from 'node:path';

/** Helpers of the start suites: the launcher as a user runs it, and every process it starts. */
export const root = join(__dirname, '..', '..', '..', '..');

export interface Launch {
  child: ChildProcess;
  output: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Every process seen below the launcher while it ran (sampled every 200 ms): pid → command line. */
  seen: Map<number, string>;
  stopWatching: () => void;
}

interface Row {
  pid: number;
  ppid: number;
  args: string;
}

function processTable(): Row[] {
  return execFileSync('ps', ['-A', '-o', 'pid=,ppid=,stat=,args='], { encoding: 'utf8' })
    .split('\n')
    .map((line) => /^\s*(\d+)\s+(\d+)\s+(\S+)\s+(.*)$/.exec(line))
    .filter((m): m is RegExpExecArray => m !== null && !m[3].startsWith('Z'))
    .map((m) => ({ pid: Number(m[1]), ppid: Number(m[2]), args: m[4] }));
}

/** The processes below `pid`, now. */
export function descendantsOf(pid: number): Row[] {
  const rows = processTable();
  const parents = new Set([pid]);
  const found: Row[] = [];
  for (let grew = true; grew; ) {
    grew = false;
    for (const row of rows) {
      if (parents.has(row.ppid) && !parents.has(row.pid)) {
        parents.add(row.pid);
        found.push(row);
        grew = true;
      }
    }
  }
  return found;
}

/** Of the processes a launch was seen to start, those still running (same pid, same command line). */
export function leftRunning(launch: Launch): Array<{ pid: number; command: string }> {
  const now = new Map(processTable().map((r) => [r.pid, r.args]));
  return [...launch.seen].filter(([pid, command]) => now.get(pid) === command).map(([pid, command]) => ({ pid, command }));
}

/** `node tools/stack/dist/cli.js start` (what `npm start` runs after the build) with its own environment. */
export function launch(env: Record<string, string>): Launch {
  let output = '';
  // a process group of its own: a signal reaches the launcher alone, unless a test sends it to the group
  const child = spawn(process.execPath, [join(root, 'tools/stack/dist/cli.js'), 'start'], {
    cwd: root,
    env: { ...process.env, ...env },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  const seen = new Map<number, string>();
  const watch = () => {
    if (child.pid && child.exitCode === null) for (const row of descendantsOf(child.pid)) seen.set(row.pid, row.args);
  };
  const timer = setInterval(watch, 200);
  void exited.then(() => clearInterval(timer));
  return { child, output: () => output, exited, seen, stopWatching: () => clearInterval(timer) };
}

export async function waitForOutput(run: { child: ChildProcess; output: () => string }, marker: string | RegExp, timeoutMs: number): Promise<string> {
  const started = Date.now();
  const found = () => (typeof marker === 'string' ? run.output().includes(marker) : marker.test(run.output()));
  while (!found()) {
    if (run.child.exitCode !== null || run.child.signalCode !== null) throw new Error(`the launcher exited (${run.child.exitCode}) before "${marker}":\n${run.output()}`);
    if (Date.now() - started > timeoutMs) throw new Error(`no "${marker}" within ${timeoutMs} ms:\n${run.output()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return run.output();
}

export async function waitUntil(check: () => boolean, description: string, timeoutMs: number): Promise<void> {
  const started = Date.now();
  while (!check()) {
    if (Date.now() - started > timeoutMs) throw new Error(`${description}: not within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export async function anyListening(ports: number[]): Promise<number[]> {
  const open = await Promise.all(ports.map(async (p) => ((await portAcceptsConnections(p)) ? p : undefined)));
  return open.filter((p): p is number => p !== undefined);
}
