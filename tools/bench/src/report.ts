import { commandsText } from './commands';
import { PACED_CONNECTIONS } from './paced';
import { InterleavedResult, RoundResult } from './load';
import type { SinkStats } from './otlp-sink';

export interface ScenarioResult extends RoundResult {
  name: string;
  /** Which server answered: the stack's gateway, or a baseline. */
  server: string;
  vsB?: number;
  vsM?: number;
}

export interface ScaleRow {
  /** The services' code path (DATABASE_MODE). */
  branch: 'local' | 'mongodb';
  books: number;
  /** Book service restart until it answers a search (on the local engine: its indexes loaded). */
  warmMs: number;
  coldByIdP50: number;
  coldByIdP99: number;
  coldByIdRps: number;
  /** Median of a few searches sent one at a time (NaN: none answered within a minute). */
  searchP50: number;
  userCollectionsP50: number;
  /** Failed answers in the row's rounds (each is checked; none is counted as served). */
  errors: number;
  /** The book service's RSS after the rounds. */
  bookRssMiB?: number;
}

export interface TargetCheck {
  target: string;
  measured: string;
  ok: boolean;
  /** Where what is known about a miss is written down. */
  seeAlso?: string;
}

/** A configuration of the stacks that measure what observability costs (docs/PERFORMANCE.md, "What tracing costs"). */
export type Observability = 'metrics off' | 'metrics on' | 'traced';

export interface CostRow extends InterleavedResult {
  read: 'warm' | 'cold';
  config: Observability;
  /** µs of CPU per request in each process of the configuration's stack (the shared database's and the sink's included). */
  cpu: Record<string, number>;
}

/** One process's `GET /metrics`, read after the rounds. */
export interface MetricsScrape {
  config: Observability;
  process: string;
  /** 0: no connection. */
  status: number;
  /** Sample lines of the exposition (comments left out). */
  samples: number;
}

export interface CostReport {
  cycles: { warm: number; cold: number };
  /** OTEL_EXPORTER_OTLP_PROTOCOL of the traced stack. */
  protocol: string;
  rows: CostRow[];
  scrapes: MetricsScrape[];
  /** What the OTLP sink received from the traced stack, its shutdown included. */
  received: SinkStats;
  /** Requests the traced stack answered in all its rounds (warm-ups included). */
  tracedRequests: number;
}

export interface Report {
  date: string;
  command: string;
  machine: string;
  versions: Record<string, string>;
  load: string;
  startToReadyMs: number;
  scenarios: ScenarioResult[];
  halfRate?: { rate: number; rounds: number; seconds: number; pinned: boolean; p50: number; p99: number; bareP50: number; bareP99: number };
  /** CPU µs per request of the gateway (warm book read) and of B: closed loop, and open loop by offered load. */
  openLoopCost?: {
    closed: { connections: number; rate: number; gateway?: number; b?: number };
    points: Array<{ fraction: number; rate: number; gateway?: number; b?: number }>;
  };
  /** The answers baseline R sends: their mean size and the share of their bytes outside ASCII. */
  recordedAnswers?: { bytes: number; nonAscii: number };
  memory: Array<{ process: string; idleMb: number; peakMb: number }>;
  /** Seconds after the restarted stack was ready when the idle figures were read. */
  idleAfterSeconds?: number;
  /** Microseconds of CPU per request in each process of the stack, for the scenarios paired with a baseline. */
  cpu: Array<{ scenario: string; micros: Record<string, number> }>;
  /** Database commands per request, by `service.collection command`, for the scenarios paired with a baseline (CommandMeter). */
  commands: Array<{ scenario: string; perRequest: Record<string, number> }>;
  scale: ScaleRow[];
  /** The warm and cold book reads with metrics off, on, and traced (docs/PERFORMANCE.md, "What tracing costs"). */
  cost?: CostReport;
  targets: TargetCheck[];
}

const f = (n: number | undefined, digits = 0) => (n === undefined || Number.isNaN(n) ? '' : n.toFixed(digits));
const sum = (values: Record<string, number>) => Object.values(values).reduce((a, v) => a + v, 0);

function renderCost(c: CostReport, lines: string[]): void {
  const traced = c.rows.some((r) => r.config === 'traced');
  lines.push('', '## What metrics and tracing cost', '');
  lines.push('The warm and cold book reads again, on three stacks of their own that differ only in their environment:');
  lines.push('**metrics off** (`METRICS_ENABLED=false`), **metrics on** (the default) and **traced** (metrics on, and');
  lines.push(`\`OTEL_TRACES_EXPORTER=otlp\`, \`OTEL_TRACES_SAMPLER=always_on\`, \`OTEL_EXPORTER_OTLP_PROTOCOL=${c.protocol}\`: every request`);
  lines.push('traced in every process, the spans sent to an OTLP/HTTP sink in a process of its own that counts and drops');
  lines.push('them). Each stack has its own NATS server, services and two gateways (response cache on for the warm read,');
  lines.push('off for the cold one) on the benchmark\'s database. The three are measured in cycles of one round each');
  lines.push('(metrics off, metrics on, traced, the order reversed every other cycle): each figure is the median of its');
  lines.push(`rounds, each ratio the median of the per-cycle ratios to the metrics-off round (${c.cycles.warm} cycle${c.cycles.warm === 1 ? '' : 's'} for the warm read,`);
  lines.push(`${c.cycles.cold} for the cold one). The targets are checked on the warm read, which the gateway answers alone, so`);
  lines.push('it shows the whole per-request cost; both are relative to metrics off (the traced stack pays for metrics');
  lines.push('too). CPU is the sum over the stack\'s processes, the shared database and the sink included (by process:');
  lines.push('the CPU table above).', '');
  lines.push('| read | configuration | req/s | p50 ms | p99 ms | p99.9 ms | errors | × metrics off (cycles) | CPU µs/request |');
  lines.push('|---|---|---:|---:|---:|---:|---:|---|---:|');
  for (const r of c.rows) {
    const cyclesText = r.config === 'metrics off' ? '1.00' : `${f(r.ratio, 2)} (${r.ratios.map((x) => f(x, 2)).join(', ')})`;
    lines.push(`| GET /v2/book/:id ${r.read} | ${r.config} | ${f(r.rps)} | ${f(r.p50)} | ${f(r.p99)} | ${f(r.p999)} | ${r.errors} | ${cyclesText} | ${f(sum(r.cpu))} |`);
  }
  const configs = [...new Set(c.scrapes.map((s) => s.config))];
  const scrapeText = (s: MetricsScrape) => `${s.process} ${s.status === 200 ? `200 (${s.samples} samples)` : s.status || 'no connection'}`;
  lines.push('', `\`GET /metrics\` after the rounds: ${configs.map((config) => `${config}: ${c.scrapes.filter((s) => s.config === config).map(scrapeText).join(', ')}`).join('; ')}.`);
  if (traced) {
    const r = c.received;
    const services = Object.entries(r.byService).map(([s, n]) => `${s} ${n}`).join(', ');
    const perRequest = c.tracedRequests > 0 ? r.spans / c.tracedRequests : 0;
    lines.push('', `The sink received ${r.requests} export requests (${f(r.bytes / 2 ** 20, 1)} MiB, ${Object.keys(r.contentTypes).join(', ') || 'none'}${r.unreadable ? `, ${r.unreadable} unreadable` : ''})`
      + ` holding ${r.spans} spans${services ? ` (${services})` : ''}: ${f(perRequest, 2)} a request for the ${c.tracedRequests} requests the traced stack answered${perRequest < 1 && r.spans > 0 ? '; fewer spans than requests means batch span processors dropped what their queues could not hold' : ''}.`);
  }
}

export function renderMarkdown(report: Report): string {
  const lines: string[] = [];
  lines.push('# Benchmarks', '');
  lines.push('Produced by `' + report.command + '` on ' + report.date + '. Rewritten by every full run; numbers vary by machine,');
  lines.push('the ratios to the baselines measured in the same run are what the targets check.', '');
  lines.push(`- Machine: ${report.machine}`);
  lines.push(`- Versions: ${Object.entries(report.versions).map(([k, v]) => `${k} ${v}`).join(', ')}`);
  lines.push(`- Load: ${report.load}`);
  lines.push(`- Start to ready (all processes, after a build): ${(report.startToReadyMs / 1000).toFixed(1)} s`, '');
  lines.push('**B** = bare fastify hello world; **M** = minimal monolith (fastify + MongoDB driver, same database,');
  lines.push('same JSON). "warm" reads repeat a small set of ids (answered by the gateway\'s response cache);');
  lines.push('"cold" reads pick a random id of the whole catalogue on a gateway replica with the cache off.');
  lines.push('**R** = bare fastify sending the warm movie read\'s answers as recorded from the gateway, byte for byte');
  lines.push('and with the same headers, in the same alternating rounds: the most any server of those answers reaches.', '');
  lines.push('## Scenarios', '');
  lines.push('| scenario | server | req/s | p50 ms | p90 ms | p99 ms | p99.9 ms | errors | × B | × M |');
  lines.push('|---|---|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const s of report.scenarios) {
    lines.push(`| ${s.name} | ${s.server} | ${f(s.rps)} | ${f(s.p50)} | ${f(s.p90)} | ${f(s.p99)} | ${f(s.p999)} | ${s.errors} | ${f(s.vsB, 2)} | ${f(s.vsM, 2)} |`);
  }
  const failed = report.scenarios.filter((s) => s.errors > 0);
  if (failed.length > 0) {
    lines.push('', 'Errors, as the load generator saw them:');
    for (const s of failed) lines.push(`- ${s.name}: ${(s.failures ?? []).join('; ') || `${s.errors} errors`}`);
  }
  if (report.halfRate) {
    const h = report.halfRate;
    lines.push('', `Warm \`GET /v2/book/:id\` at half its maximum rate, open loop (${f(h.rate)} req/s asked, sent as each millisecond falls due, on ${PACED_CONNECTIONS} keep-alive connections, latency counted from when each request was due; median of ${h.rounds} round${h.rounds === 1 ? '' : 's'} of ${h.seconds} s; ${h.pinned ? 'the load generator, in a process of its own, and the processes this read does not reach on CPU 0, the server under test alone on CPU 1' : 'not pinned to CPUs'}): p50 ${f(h.p50, 2)} ms, p99 ${f(h.p99, 2)} ms (${f(h.p99 / h.p50, 1)} × p50). The same load on B, in alternating rounds: p50 ${f(h.bareP50, 2)} ms, p99 ${f(h.bareP99, 2)} ms (${f(h.bareP99 / h.bareP50, 1)} × p50): the tail that the machine and the load generator add on their own.`);
  }
  if (report.openLoopCost) {
    const c = report.openLoopCost;
    lines.push('', 'What a request cost the server under test in those rounds, and at lighter open-loop loads (µs of CPU,');
    lines.push('user + system, per request; the closed-loop row comes from the warm scenario\'s rounds and B\'s hello-world');
    lines.push('rounds, unpinned). Where the open-loop cost exceeds the closed-loop one, the server is busier at half rate');
    lines.push('than half, and the tail follows ([PERFORMANCE.md](PERFORMANCE.md)).', '');
    lines.push('| load | req/s | gateway µs/request | B µs/request |', '|---|---:|---:|---:|');
    lines.push(`| closed loop, ${c.closed.connections} connections: the gateway's maximum | ${f(c.closed.rate)} | ${f(c.closed.gateway, 1)} | ${f(c.closed.b, 1)} |`);
    for (const p of c.points) lines.push(`| open loop, ${f(p.fraction * 100)} % of the maximum | ${f(p.rate)} | ${f(p.gateway, 1)} | ${f(p.b, 1)} |`);
  }
  if (report.cpu.length > 0) {
    // processes that did nothing for a scenario (under 1 µs a request in all of them) are left out
    const processes = [...new Set(report.cpu.flatMap((c) => Object.keys(c.micros)))].filter((p) => report.cpu.some((c) => (c.micros[p] ?? 0) >= 1));
    lines.push('', '## CPU per request, by process', '');
    lines.push('Microseconds of CPU (user + system, from /proc) each process of the stack spent per request during the');
    lines.push('scenario\'s measured rounds (neither its warm-up nor its baseline\'s rounds). `gateway-1` is the replica with');
    lines.push('the response cache off that serves the cold reads. The load generator\'s share is not in it, nor the');
    lines.push('kernel\'s network work done outside these processes.' + (report.cost ? ' The rows named after a configuration come from the stacks of' : ''));
    if (report.cost) lines.push('"What metrics and tracing cost" below, whose processes carry the same names; `otlp-sink` receives the spans.');
    lines.push('');
    lines.push(`| scenario | ${processes.join(' | ')} | total |`, `|---|${processes.map(() => '---:').join('|')}|---:|`);
    for (const c of report.cpu) {
      const total = processes.reduce((a, p) => a + (c.micros[p] ?? 0), 0);
      lines.push(`| ${c.scenario} | ${processes.map((p) => f(c.micros[p])).join(' | ')} | ${f(total)} |`);
    }
  }
  if (report.commands.length > 0) {
    lines.push('', '## Database commands per request', '');
    lines.push('The commands the services sent to the database during each scenario\'s measured rounds (its warm-up not), per');
    lines.push('request, from their own `plaza_mongodb_command_duration_seconds` counts: the total, then by');
    lines.push('`service.collection command`, the most frequent first (under 0.005 a request left out). On FerretDB each');
    lines.push('write is a SQLite transaction, and a command\'s cost follows the number of values in its document');
    lines.push('([ENGINES.md](ENGINES.md), the engine probe).', '');
    lines.push('| scenario | commands per request |', '|---|---|');
    for (const c of report.commands) lines.push(`| ${c.scenario} | ${commandsText(c.perRequest)} |`);
  }
  lines.push('', '## Memory (RSS)', '', 'Idle: with the catalogue loaded and the database engine and each service restarted on it (as a second `npm start` finds it),', `before any request, read ${report.idleAfterSeconds ?? '?'} s after the restarted stack was ready and once all of it had used under 0.25 s of CPU in 5 s (a full run waits 150 s: what loading the read models raised has been given back by then, docs/PERFORMANCE.md "Memory"); peak: at the end of the run.`, '', '| process | idle MiB | peak MiB |', '|---|---:|---:|');
  for (const m of report.memory) lines.push(`| ${m.process} | ${m.idleMb} | ${m.peakMb} |`);
  if (report.scale.length > 0) {
    lines.push('', '## Growth with catalogue size (local engine: FerretDB on SQLite)', '');
    lines.push('Both branches of the services (`DATABASE_MODE`, docs/ENGINES.md) on the same engine: `local`, what');
    lines.push('`npm start` runs, and `mongodb`, the code production runs. Cold reads by id on a gateway without');
    lines.push('response cache (4 clients); the search is `q=春天` and the user list `/v2/book/user/:name/collections`');
    lines.push('for a user with 20 entries while the collections collection holds one entry per book, each the');
    lines.push('median of 5 requests sent one at a time (empty: none answered within a minute); the book service\'s');
    lines.push('RSS after the rounds. On the `mongodb` branch the engine is still FerretDB, which answers any filter');
    lines.push('but `_id` equality by a scan: its search and list times are FerretDB\'s, not MongoDB\'s (whose index');
    lines.push('use the `indexes.spec.ts` tests check); what that row shows is the book service\'s memory, flat.', '');
    lines.push('| branch | books | book service restart to first answer (local: a search), s | by id p50 ms | by id p99 ms | by id req/s | search p50 ms | user list p50 ms | book service MiB | errors |', '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
    for (const r of report.scale) {
      lines.push(`| ${r.branch} | ${r.books} | ${f(r.warmMs / 1000, 1)} | ${f(r.coldByIdP50)} | ${f(r.coldByIdP99)} | ${f(r.coldByIdRps)} | ${f(r.searchP50)} | ${f(r.userCollectionsP50)} | ${f(r.bookRssMiB)} | ${r.errors} |`);
    }
  }
  if (report.cost) renderCost(report.cost, lines);
  lines.push('', '## Targets', '', '| target | measured | met |', '|---|---|---|');
  for (const t of report.targets) lines.push(`| ${t.target} | ${t.measured} | ${t.ok ? 'yes' : `**no**${t.seeAlso ? ` (see ${t.seeAlso})` : ''}`} |`);
  lines.push('', '## Reading the numbers', '');
  lines.push('- Ratios, not absolute numbers, are what carry from one machine to another; on a shared two-core');
  lines.push('  machine B itself varies by a third from minute to minute, so each ratio comes from rounds alternating');
  lines.push('  with its baseline. Every process, the load generator included, shares the same two cores.');
  lines.push('- The echo crosses four processes (gateway, nats-server, the event service, back) where B is one; the CPU');
  lines.push('  table shows what each costs per request. The echo\'s ratio is CPU bound: its sum, plus the load');
  lines.push('  generator\'s, fills both cores.');
  if (report.recordedAnswers) {
    const a = report.recordedAnswers;
    lines.push('- The warm reads are bound by the load generator more than by the gateway: autocannon turns every');
    lines.push(`  answer into a string, and a movie answer (${f(a.bytes)} bytes on average, ${f(100 * a.nonAscii)} % of them outside ASCII, the`);
    lines.push('  Chinese text) costs it far more than B\'s 17 bytes. R measures that ceiling; the warm movie read\'s');
    lines.push('  distance to R is what the gateway adds.');
  }
  lines.push('- At half its maximum rate a server is busy half the time only if an open-loop request costs it what a');
  lines.push('  closed-loop one does; the table of CPU per request by load shows how far each is from that. The busier');
  lines.push('  server queues more requests behind a short slowdown of the machine; the two tails side by side above');
  lines.push('  tell the stack\'s from the machine\'s.');
  lines.push('- How each list and search query uses MongoDB\'s indexes is checked by the `indexes.spec.ts` unit');
  lines.push('  tests of each service (docs/ENGINES.md); the local engine\'s growth is the table above.');
  lines.push('');
  return lines.join('\n');
}
