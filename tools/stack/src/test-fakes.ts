/**
 * Small fake executables for the unit tests of tools/stack (not part of the build): a `go` that
 * "installs" and "builds" fake engines, engines that listen on the port they are given, and apps
 * that stand in for the services and the gateway. Each writes what it does to an event log, one
 * line per event in the order they happened, so tests can check the order of start-up.
 */
import { execFileSync } from 'node:child_process';
import { appendFileSync, chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface FakeEngineBehaviour {
  /**
   * `listen` (default): accept connections on the port; `exit`: exit 3 at once; `silent`: run but
   * never listen; `port-taken-once`: the first run finds its port taken (PORT_TAKEN_ONCE).
   */
  mode?: 'listen' | 'exit' | 'silent' | 'port-taken-once';
}

/**
 * What a process sees when another program took its port between the stack's check and its own
 * listen: the fake binds the port once as that other program would, then listens on it for real
 * and dies of Node's own `listen EADDRINUSE` error, 300 ms later (as a real program logs and
 * cleans up first), while the other program accepts connections. Only the first fake to run does
 * it (a marker file), so whatever the stack starts next runs normally.
 */
const PORT_TAKEN_ONCE = (marker: string, portExpr: string) => `
let firstRun = true;
try { fs.closeSync(fs.openSync(${JSON.stringify(marker)}, 'wx')); } catch { firstRun = false; }
if (firstRun) {
  const net = require('node:net');
  const taken = ${portExpr};
  net.createServer().listen(taken, '127.0.0.1', () => net.createServer().on('error', (e) => setTimeout(() => { throw e; }, 300)).listen(taken, '127.0.0.1'));
  return;
}`;

/**
 * `greet(socket)`: a fake engine's first exchange, what the stack's handshake checks
 * (engine-handshake.ts): nats-server's INFO line; for FerretDB, an OP_MSG header answering the
 * client's first message (its request id at byte 4 becomes the reply's responseTo).
 */
const ENGINE_GREETING: Record<'nats' | 'ferretdb', string> = {
  nats: `const greet = (s) => s.end('INFO {"server_name":"fake"}\\r\\n');`,
  ferretdb: `const greet = (s) => s.once('data', (d) => {
  const reply = Buffer.alloc(16);
  reply.writeInt32LE(16, 0); reply.writeInt32LE(d.readInt32LE(4), 8); reply.writeInt32LE(2013, 12);
  s.end(reply);
});`,
};

export interface FakeGoBehaviour {
  /** Seconds `go install` (nats-server) takes. */
  installSeconds?: number;
  /** Seconds `go build` (FerretDB) takes. */
  buildSeconds?: number;
  /** Make `go mod download` fail. */
  failDownload?: boolean;
  nats?: FakeEngineBehaviour;
  ferretdb?: FakeEngineBehaviour;
}

export interface FakeAppBehaviour {
  /** The gateway: `ready` (default) answers /ready with 200; `never` with 503; `exit` exits 1 at once. */
  gateway?: 'ready' | 'never' | 'exit';
  /** The services: `run` (default) listen on HEALTH_PORT; `port-taken-once`: the first one to start finds it taken. */
  service?: 'run' | 'port-taken-once';
  /** The gateway's ADMIN_PORT: `listen` (default), or `port-taken-once`: its first run finds it taken. */
  adminPort?: 'listen' | 'port-taken-once';
}

export class FakeMachine {
  readonly root = mkdtempSync(join(tmpdir(), 'plaza-stack-test-'));
  /** The only folder on PATH: fakes, plus the few real commands the installers call. */
  readonly bin = join(this.root, 'bin');
  readonly tools = join(this.root, 'tools');
  readonly data = join(this.root, 'data');
  readonly events = join(this.root, 'events.log');
  readonly moduleDir = join(this.root, 'module', 'FerretDB@v1.24.0');
  private readonly savedEnv = { PATH: process.env.PATH, PLAZA_TOOLS_DIR: process.env.PLAZA_TOOLS_DIR };

  constructor() {
    mkdirSync(this.bin, { recursive: true });
    writeFileSync(this.events, '');
    for (const command of ['chmod']) {
      const real = ['/bin', '/usr/bin'].map((d) => join(d, command)).find((p) => existsSync(p));
      if (real) symlinkSync(real, join(this.bin, command));
    }
    // what `go mod download` hands over: the two files the FerretDB install touches
    mkdirSync(join(this.moduleDir, 'build', 'version'), { recursive: true });
    mkdirSync(join(this.moduleDir, 'internal', 'backends', 'sqlite', 'metadata'), { recursive: true });
    writeFileSync(join(this.moduleDir, 'internal', 'backends', 'sqlite', 'metadata', 'metadata.go'), `package metadata\n\nconst (\n\tIDColumn = DefaultColumn + "->'$._id'"\n)\n`);
  }

  /** Puts this machine's PATH and tools folder in place (restore() puts the real ones back). */
  activate(): this {
    process.env.PATH = this.bin;
    process.env.PLAZA_TOOLS_DIR = this.tools;
    return this;
  }

  restore(): void {
    for (const [key, value] of Object.entries(this.savedEnv)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
  }

  remove(): void {
    this.restore();
    rmSync(this.root, { recursive: true, force: true });
  }

  /** Event lines, in the order they happened: `go install start`, `start nats 4222 pid=…`, … */
  log(): string[] {
    return readFileSync(this.events, 'utf8').split('\n').filter(Boolean);
  }

  /** The pids the fakes reported (`pid=123`), engines, apps and go alike. */
  pids(): number[] {
    return this.log().flatMap((line) => [...line.matchAll(/pid=(\d+)/g)].map((m) => Number(m[1])));
  }

  note(line: string): void {
    appendFileSync(this.events, `${line}\n`);
  }

  /** A node script as an executable. */
  private nodeScript(path: string, body: string): string {
    writeFileSync(path, `#!${process.execPath}\n'use strict';\nconst fs = require('node:fs');\nconst note = (l) => fs.appendFileSync(${JSON.stringify(this.events)}, l + '\\n');\n${body}\n`);
    chmodSync(path, 0o755);
    return path;
  }

  /** The source of a fake engine: `--version` prints one; otherwise it records its start and listens (or not). */
  engineSource(name: 'nats' | 'ferretdb', behaviour: FakeEngineBehaviour = {}): string {
    const portExpr = name === 'nats' ? "Number(args[args.indexOf('-p') + 1])" : "Number(args.find((a) => a.startsWith('--listen-addr=')).split(':').pop())";
    return `
const args = process.argv.slice(2);
if (args[0] === '--version') { console.log('${name} version v9.9.9'); process.exit(0); }
const port = ${portExpr};
note('start ${name} ' + port + ' pid=' + process.pid);
process.on('SIGTERM', () => { note('stop ${name} pid=' + process.pid); process.exit(0); });
const mode = ${JSON.stringify(behaviour.mode ?? 'listen')};
${ENGINE_GREETING[name]}
if (mode === 'port-taken-once') (() => {${PORT_TAKEN_ONCE(join(this.root, `${name}-port-taken`), 'port')}
  require('node:net').createServer(greet).listen(port, '127.0.0.1');
})();
if (mode === 'exit') { console.error('${name}: cannot start (fake)'); process.exit(3); }
if (mode === 'listen') require('node:net').createServer(greet).listen(port, '127.0.0.1');
setInterval(() => undefined, 1000);
`;
  }

  /** Puts a fake engine on PATH, as if installed system-wide. */
  engineOnPath(command: 'nats-server' | 'ferretdb' | 'mongod', behaviour: FakeEngineBehaviour = {}): string {
    return this.nodeScript(join(this.bin, command), this.engineSource(command === 'nats-server' ? 'nats' : 'ferretdb', behaviour));
  }

  /** A fake `go` on PATH: install, mod download and build, each writing events and its pid. */
  go(behaviour: FakeGoBehaviour = {}): void {
    const natsSource = this.engineSource('nats', behaviour.nats);
    const ferretSource = this.engineSource('ferretdb', behaviour.ferretdb);
    const header = `#!${process.execPath}\n'use strict';\nconst fs = require('node:fs');\nconst note = (l) => fs.appendFileSync(${JSON.stringify(this.events)}, l + '\\n');\n`;
    this.nodeScript(
      join(this.bin, 'go'),
      `
const { spawn } = require('node:child_process');
const path = require('node:path');
const args = process.argv.slice(2);
const write = (file, source) => { fs.writeFileSync(file, ${JSON.stringify(header)} + source); fs.chmodSync(file, 0o755); };
// a child that does the "work", as go's compilers do: killing the group must end it too
const work = (seconds, then) => {
  const child = spawn(process.execPath, ['-e', 'setTimeout(() => undefined, ' + Math.round(seconds * 1000) + ')'], { stdio: 'ignore' });
  note('go ' + args[0] + ' worker pid=' + child.pid);
  child.on('exit', (code) => { if (code === 0) then(); else process.exit(1); });
};
note('go ' + args[0] + ' start pid=' + process.pid);
if (args[0] === 'install') {
  work(${behaviour.installSeconds ?? 0}, () => { write(path.join(process.env.GOBIN, 'nats-server'), ${JSON.stringify(natsSource)}); note('go install end'); });
} else if (args[0] === 'mod') {
  if (${Boolean(behaviour.failDownload)}) { console.error('go: module lookup failed (fake)'); process.exit(1); }
  console.log(JSON.stringify({ Path: 'github.com/FerretDB/FerretDB', Dir: ${JSON.stringify(this.moduleDir)} }));
  note('go mod end');
} else if (args[0] === 'build') {
  const out = args[args.indexOf('-o') + 1];
  const metadata = fs.readFileSync('internal/backends/sqlite/metadata/metadata.go', 'utf8');
  if (!metadata.includes('IDColumn = DefaultColumn + \`->"_id"\`')) { console.error('not patched'); process.exit(1); }
  if (fs.readFileSync('build/version/version.txt', 'utf8').trim() !== 'v1.24.0') { console.error('no version.txt'); process.exit(1); }
  work(${behaviour.buildSeconds ?? 0}, () => { write(out, ${JSON.stringify(ferretSource)}); note('go build end'); });
} else {
  console.error('fake go: unexpected ' + args.join(' '));
  process.exit(2);
}
`,
    );
  }

  /** Fake apps: every service just runs; the gateway answers /ready as told. Returns StackOptions.entryPoint. */
  apps(behaviour: FakeAppBehaviour = {}): (app: string) => string {
    const service = this.nodeScript(
      join(this.root, 'service.js'),
      `
note('start service ' + process.env.HEALTH_PORT + ' pid=' + process.pid);
process.on('SIGTERM', () => { note('stop service pid=' + process.pid); process.exit(0); });
(() => {${behaviour.service === 'port-taken-once' ? PORT_TAKEN_ONCE(join(this.root, 'service-port-taken'), 'Number(process.env.HEALTH_PORT)') : ''}
  require('node:net').createServer((s) => s.destroy()).listen(Number(process.env.HEALTH_PORT), '127.0.0.1');
})();
`,
    );
    const gateway = this.nodeScript(
      join(this.root, 'gateway.js'),
      `
note('start gateway ' + process.env.ADMIN_PORT + ' pid=' + process.pid);
const mode = ${JSON.stringify(behaviour.gateway ?? 'ready')};
if (mode === 'exit') { console.error('gateway: bad config (fake)'); process.exit(1); }
process.on('SIGTERM', () => { note('stop gateway pid=' + process.pid); process.exit(0); });
(() => {${behaviour.adminPort === 'port-taken-once' ? PORT_TAKEN_ONCE(join(this.root, 'admin-port-taken'), 'Number(process.env.ADMIN_PORT)') : ''}
  require('node:net').createServer((s) => s.destroy()).listen(Number(process.env.ADMIN_PORT), '127.0.0.1');
  require('node:http').createServer((req, res) => { res.statusCode = mode === 'ready' && req.url === '/ready' ? 200 : 503; res.end(); }).listen(Number(process.env.PORT), '127.0.0.1');
})();
`,
    );
    return (app) => (app === 'gateway' ? gateway : service);
  }
}

/** True while a process runs (a zombie, exited but not yet reaped, counts as gone). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return existsSync(`/proc/${pid}`) || process.platform !== 'linux';
  }
}

/** Waits until `check` holds (tests of things that end asynchronously). */
export async function eventually(check: () => boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Every running process below `root` (its children, theirs, ...), from `ps`; `ps` itself left out. */
export function descendants(root = process.pid): Array<{ pid: number; command: string }> {
  const rows = execFileSync('ps', ['-A', '-o', 'pid=,ppid=,stat=,args='], { encoding: 'utf8' })
    .split('\n')
    .map((line) => /^\s*(\d+)\s+(\d+)\s+(\S+)\s+(.*)$/.exec(line))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => ({ pid: Number(m[1]), ppid: Number(m[2]), stat: m[3], command: m[4] }))
    .filter((p) => !p.stat.startsWith('Z') && !/^ps -A/.test(p.command));
  const found: Array<{ pid: number; command: string }> = [];
  const parents = new Set([root]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const p of rows) {
      if (parents.has(p.ppid) && !parents.has(p.pid)) {
        parents.add(p.pid);
        found.push({ pid: p.pid, command: p.command });
        grew = true;
      }
    }
  }
  return found;
}
