import { DEMO_PASSWORD, EN_WORDS, writeCatalogue, ZH_WORDS } from '@plaza/demo';
import { freePort, httpStatus, ManagedProcess, Stack, waitFor, workspaceRoot } from '@plaza/stack';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { CatalogueIds, readIds } from './catalogue';
import { LoadOptions, measure, measurePaired, PairedResult, Reference, RoundResult, single, Step, Target } from './load';
import { Report, renderMarkdown, ScenarioResult, TargetCheck } from './report';
import { CpuMeter, memoryOf, OpenLoopCost, untilQuiet } from './proc';
import { Branch, measureScaling } from './scaling';
import { medianPaced, PacedResult } from './paced';
import { PacedClient } from './paced-client';
import { idRead, pageRead, writeMix } from './scenarios';
import { CommandMeter } from './commands';
import { ReadsDuringWrites, readsDuringWrites } from './reads-during-writes';
import { pin, unpin } from './affinity';
import { answerStats, recordAnswers } from './recorded-answers';
import { costTargets, measureCost } from './cost';

const quick = process.argv.includes('--quick');
// 50 connections: enough requests in flight to saturate every server under test (a pipeline of
// processes needs more in flight than one process to keep two cores busy)
const LOAD: LoadOptions = {
  ...(quick ? { connections: 10, durationSeconds: 1 } : { connections: 50, durationSeconds: 5 }),
  // every scenario is measured in its steady state: warmed until it has answered 5 000 requests
  // (load.ts, WarmUp); the quick run, a check that every scenario answers, warms each for a round
  ...(quick ? {} : { warmUp: { requests: 5000, maxSeconds: 30 } }),
  // for profiling one scenario with BENCH_ONLY on the quick catalogue at the full load
  ...(process.env.BENCH_CONNECTIONS ? { connections: Number(process.env.BENCH_CONNECTIONS) } : {}),
  ...(process.env.BENCH_SECONDS ? { durationSeconds: Number(process.env.BENCH_SECONDS) } : {}),
};
const ROUNDS = quick ? 1 : 3;
/**
 * Rounds of the scenarios whose ratio to B is a target: their median decides it, and one round
 * caught in a slow episode of the shared machine should not (cold reads vs M keep ROUNDS: their
 * rounds take longer, and their margin is wide).
 */
const B_RATIO_ROUNDS = quick ? 1 : 5;
/** Open-loop rounds at half rate: their p99 varies more from round to round than throughput does. */
const PACED_ROUNDS = quick ? 1 : 7;
/** Lighter open-loop loads (fractions of the warm maximum) whose CPU per request the report shows next to half rate's. */
const LIGHTER_LOADS = [0.25, 0.1];
/**
 * Idle memory is read this long after the stack restarted on the catalogue is ready (at the earliest): the V8
 * heaps give back what loading the read models left within about 30 s, FerretDB's Go runtime on
 * its periodic collection, two minutes after its start. The quick run reads it once quiet.
 */
const IDLE_AFTER_MS = quick ? 0 : 150_000;
const say = (line: string) => process.stdout.write(`${line}\n`);
const pick = <T>(items: T[]) => items[Math.floor(Math.random() * items.length)];
const root = workspaceRoot();
/** How the traced stack of the cost section exports its spans: http/protobuf (the OTLP default), or http/json. */
const OTLP_PROTOCOL = process.env.BENCH_OTLP_PROTOCOL || 'http/protobuf';
/**
 * `BENCH_ONLY=<regular expression>` runs only the scenarios whose name it matches (the baselines
 * always run; `half-rate`, `cost` and `scaling` name the later sections), for profiling one path;
 * a run with it checks no target and writes tmp/bench-only.md. `BENCH_SCALING_BRANCHES=mongodb`
 * picks the growth table's branches (default: the local branch in the quick run, both in the full),
 * `BENCH_SCALING_SIZES=1000,10000` its catalogue sizes (default: 1 000; 1 000, 10 000 and 100 000).
 */
const only = process.env.BENCH_ONLY ? new RegExp(process.env.BENCH_ONLY, 'i') : undefined;
const runs = (name: string) => !only || only.test(name);
/** The lists' scenarios, which share the entries each writer makes first. */
const LIST_SCENARIOS = {
  collections: 'GET /v2/book/user/:name/collections',
  annotations: 'GET /v2/book/user/:name/annotations',
  notes: 'GET /v2/note/user_created/:id',
  participants: 'GET /v2/event/:id/participants',
};
/** `BENCH_CPU_PROF=book,note` runs those apps with `--cpu-prof`; their profiles land in tmp/bench-profiles when the stack stops. */
const profiled = (process.env.BENCH_CPU_PROF ?? '').split(',').filter(Boolean);

async function startBaseline(name: string, script: string, env: Record<string, string>, dataDir: string): Promise<{ url: string; proc: ManagedProcess }> {
  const port = await freePort();
  const proc = new ManagedProcess(name, {
    command: process.execPath,
    args: [join(root, 'tools/bench/dist/baselines', script)],
    env: { ...env, PORT: String(port) },
    logFile: join(dataDir, 'logs', `${name}.log`),
  }).start();
  const url = `http://127.0.0.1:${port}`;
  await waitFor(name, async () => (await httpStatus(`${url}/`).catch(() => 0)) > 0, 20_000, () => (proc.running ? undefined : proc.tail()));
  return { url, proc };
}

async function form(url: string, body: Record<string, string>, token?: string): Promise<{ status: number; json: Record<string, unknown> }> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: new URLSearchParams(body).toString(),
  });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}

/**
 * Whether every derived counter (books' users' ratings and tags, notes' likes and comments,
 * events' participants) equals its source: `npm run reconcile -- --dry-run` against the stack.
 */
function checkCounters(natsUrl: string): { ok: boolean; detail: string } {
  const run = spawnSync(process.execPath, [join(root, 'apps/reconcile/dist/main.js'), '--dry-run', '--json'], { env: { ...process.env, NATS_URL: natsUrl }, encoding: 'utf8' });
  return { ok: run.status === 0, detail: run.status === 0 ? '' : `${run.stdout}${run.stderr}`.slice(0, 2000) };
}

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'plaza-bench-'));
  const started = Date.now();
  const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${Math.round(totalmem() / 2 ** 30)} GiB, ${process.platform} ${process.arch}`;
  say(`benchmark (${quick ? 'quick' : 'full'}) on ${machine}`);

  const b = await startBaseline('baseline-b', 'hello.js', {}, dataDir);
  const t0 = Date.now();
  // one token sends every scenario's load: a flood by the fair shares' measure (docs/DECISIONS.md, "Limits"), lifted here
  const fairShares = { RATE_LIMIT_USER_PER_MIN: '100000000', RATE_LIMIT_APP_PER_MIN: '100000000', RATE_LIMIT_AUTH_PER_MIN: '100000000', RATE_LIMIT_CONCURRENT_PER_CALLER: '100000', MAX_CONCURRENT_PER_CALLER: '100000' };
  const stackEnv = { LOG_LEVEL: process.env.BENCH_LOG_LEVEL || 'warn', BENCH_ENDPOINTS: 'true', NODE_ENV: 'development', ...fairShares };
  const stack = await Stack.start({
    dataDir,
    env: stackEnv,
    nodeArgs: Object.fromEntries(profiled.map((app) => [app, ['--cpu-prof', `--cpu-prof-dir=${join(root, 'tmp', 'bench-profiles')}`]])),
    log: say,
  });
  const startToReadyMs = Date.now() - t0;
  say(`stack ready in ${startToReadyMs} ms`);
  const report: Report = {
    date: new Date().toISOString().slice(0, 16).replace('T', ' ') + ' UTC',
    command: quick ? 'npm run bench -- --quick' : 'npm run bench',
    machine,
    versions: stack.versions(),
    load: `autocannon, ${LOAD.connections} connections, no pipelining, ${ROUNDS} × ${LOAD.durationSeconds} s rounds (median) after a warm-up (${LOAD.warmUp ? `2 s rounds until ${LOAD.warmUp.requests} requests were answered, at most ${LOAD.warmUp.maxSeconds} s` : 'one round'}), every body checked; scenarios with a ratio target alternate their rounds with the baseline's (${B_RATIO_ROUNDS} pairs for a ratio to B) and report the median of the per-pair ratios`,
    startToReadyMs,
    scenarios: [],
    memory: [],
    scale: [],
    targets: [],
    cpu: [],
    commands: [],
  };
  /** Baselines started inside the run (M, R): stopped at the end whatever happened. */
  const baselines: ManagedProcess[] = [];
  try {
    // users: the demo three, then one writer a connection, then as many again for the reads during the write mix
    const size = quick ? { users: Math.max(30, 3 + 2 * LOAD.connections), books: 200, movies: 100, celebrities: 100, events: 20 } : undefined;
    const file = join(dataDir, 'catalogue.ndjson');
    await writeCatalogue(file, size);
    const importStarted = Date.now();
    const run = spawnSync(process.execPath, [join(root, 'apps/importer/dist/main.js'), file], { env: { ...process.env, NATS_URL: stack.natsUrl }, encoding: 'utf8' });
    if (run.status !== 0) throw new Error(`catalogue import failed:\n${run.stderr}`);
    say(`catalogue imported in ${Math.round((Date.now() - importStarted) / 1000)} s`);

    // idle at the catalogue, as a second `npm start` finds it: the database engine and each service
    // restarted on the loaded database (the services load their read models from it), then left
    // alone a moment. The engine too: a second start finds a fresh one, not one whose heap the
    // import grew (FerretDB's Go runtime returns that memory to the system over minutes)
    if (stack.mongo) {
      await stack.stopEngine('mongo');
      await stack.startEngine('mongo');
    }
    for (const name of [...stack.apps.keys()].filter((n) => !n.startsWith('gateway'))) await stack.restartApp(name);
    await stack.waitReady();
    // ready comes before the read models finish loading (they fall back to the database meanwhile):
    // idle is as an operator finds a stack left alone (IDLE_AFTER_MS), and not before the whole
    // stack has been quiet for 5 s (under 0.25 s of CPU between all of it: lease renewals and V8's
    // collections after a start go on)
    const ready = Date.now();
    const quietPids = [...stack.apps.values()].map((p) => p.pid).concat(stack.mongo?.process.pid, stack.nats?.process.pid);
    await untilQuiet(quietPids, { maxMs: quick ? 60_000 : 120_000 });
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, IDLE_AFTER_MS - (Date.now() - ready))));
    const waitedMs = Date.now() - ready;
    report.idleAfterSeconds = Math.round(waitedMs / 1000);
    const idle = new Map([...stack.apps.entries()].map(([n, p]) => [n, memoryOf(p.pid)?.rss ?? 0]));
    if (stack.mongo) idle.set(stack.mongo.kind, memoryOf(stack.mongo.process.pid)?.rss ?? 0);
    if (stack.nats) idle.set('nats-server', memoryOf(stack.nats.process.pid)?.rss ?? 0);
    say(`idle at the catalogue, database and services restarted, read ${Math.round(waitedMs / 1000)} s after they were ready: ${[...idle.values()].reduce((a, v) => a + v, 0)} MiB`);
    const ids: CatalogueIds = await readIds(file);

    const cold = await stack.startExtraGateway({ RESPONSE_CACHE_ENABLED: 'false', BENCH_ENDPOINTS: 'true', LOG_LEVEL: process.env.BENCH_LOG_LEVEL || 'warn' });
    const m = await startBaseline('baseline-m', 'monolith.js', { MONGO_URL: stack.mongoUrl, PUBLIC_API_URL: stack.baseUrl, PUBLIC_WEB_URL: `${stack.baseUrl}/web` }, dataDir);
    baselines.push(m.proc);

    const premium = (await form(`${stack.baseUrl}/auth2/token`, { grant_type: 'client_credentials', client_id: 'demo-premium', client_secret: 'demo-premium-secret' })).json.access_token as string;
    const hotBooks = ids.books.slice(0, 20);
    const hotMovies = ids.movies.slice(0, 20);
    const answersFile = join(dataDir, 'movie-answers.json');
    const movieAnswers = await recordAnswers(stack.baseUrl, hotMovies.map((id) => `/v2/movie/subject/${id}`), premium);
    writeFileSync(answersFile, JSON.stringify(movieAnswers));
    report.recordedAnswers = answerStats(movieAnswers);
    const replay = await startBaseline('baseline-r', 'replay.js', { ANSWERS_FILE: answersFile }, dataDir);
    baselines.push(replay.proc);
    /** Each user's access token, signed in one after the other through the premium demo app. */
    const signIn = async (users: Array<{ uid: string }>): Promise<string[]> => {
      const tokens: string[] = [];
      for (const u of users) {
        const r = await form(`${stack.baseUrl}/auth2/token`, { grant_type: 'password', client_id: 'demo-premium', client_secret: 'demo-premium-secret', username: u.uid, password: DEMO_PASSWORD });
        tokens.push(r.json.access_token as string);
      }
      return tokens;
    };
    const writers = ids.users.slice(3, 3 + LOAD.connections);
    const userTokens = await signIn(writers);

    const results: ScenarioResult[] = report.scenarios;
    /** What a scenario left out by BENCH_ONLY reports: nothing (no target is checked in such a run). */
    const skipped: PairedResult = { rps: NaN, p50: NaN, p90: NaN, p99: NaN, p999: NaN, errors: 0, requests: 0, ratio: NaN, ratios: [], servedInMeasuredRounds: 0 };
    // the stack's processes, for the CPU each scenario's request costs in each of them
    const stackPids = new Map<string, number | undefined>([...stack.apps.entries()].map(([n, p]) => [n, p.pid]));
    if (stack.nats) stackPids.set('nats-server', stack.nats.process.pid);
    if (stack.mongo) stackPids.set(stack.mongo.kind, stack.mongo.process.pid);
    // the services' own metrics, for the database commands each scenario's request sends
    const serviceMetrics = new Map([...stack.apps.keys()].flatMap((n) => {
      const port = stack.healthPort(n);
      return n === 'gateway' || !port ? [] : [[n, `http://127.0.0.1:${port}/metrics`] as [string, string]];
    }));
    /** A scenario whose target is a ratio: measured in rounds alternating with its baseline's. */
    const paired = async (name: string, url: string, target: Target, baseline: { name: 'B' | 'M'; url: string; target: Target }, reference?: Reference & { name: string }): Promise<PairedResult> => {
      if (!runs(name)) return skipped;
      say(`  ${name} (stack, paired with ${baseline.name}${reference ? `, and ${reference.name}` : ''})...`);
      const meter = new CpuMeter(stackPids);
      const commands = new CommandMeter(serviceMetrics);
      // the services' metrics are read outside the CPU meter's window: a scrape costs them CPU too
      const meters = {
        start: async () => {
          await commands.start();
          meter.start();
        },
        stop: async () => {
          meter.stop();
          await commands.stop();
        },
      };
      const r = await measurePaired(url, target, baseline.url, baseline.target, LOAD, baseline.name === 'B' ? B_RATIO_ROUNDS : ROUNDS, meters, reference);
      report.cpu.push({ scenario: name, micros: meter.perRequest(r.servedInMeasuredRounds) });
      report.commands.push({ scenario: name, perRequest: commands.perRequest(r.servedInMeasuredRounds) });
      const vs = (ratio: number) => (baseline.name === 'B' ? { vsB: ratio } : { vsM: ratio });
      results.push({ name, server: 'stack', ...r, ...vs(r.ratio) });
      const rounds = (ratios: number[]) => ratios.map((x) => x.toFixed(2)).join(', ');
      say(`    ${Math.round(r.rps)} req/s, p50 ${r.p50} ms, p99 ${r.p99} ms, errors ${r.errors}, ${r.ratio.toFixed(2)} × ${baseline.name} (rounds: ${rounds(r.ratios)})`);
      if (reference && r.reference) {
        results.push({ name, server: reference.name, ...r.reference, ...vs(r.reference.ratio) });
        say(`    ${reference.name}: ${Math.round(r.reference.rps)} req/s, ${r.reference.ratio.toFixed(2)} × ${baseline.name} (rounds: ${rounds(r.reference.ratios)})`);
      }
      return r;
    };
    const scenario = async (name: string, server: string, url: string, target: Target, meter?: CpuMeter): Promise<RoundResult> => {
      if (server === 'stack' && !runs(name)) return skipped;
      say(`  ${name} (${server})...`);
      // the stack's scenarios report their CPU per request by process too
      const stackMeter = server === 'stack' ? new CpuMeter(stackPids) : meter;
      const r = await measure(url, target, LOAD, ROUNDS, stackMeter);
      if (server === 'stack' && stackMeter) report.cpu.push({ scenario: name, micros: stackMeter.perRequest(r.requests) });
      results.push({ name, server, ...r });
      say(`    ${Math.round(r.rps)} req/s, p50 ${r.p50} ms, p99 ${r.p99} ms, errors ${r.errors}${r.failures?.length ? `: ${r.failures.join('; ')}` : ''}`);
      return r;
    };

    const hello = single({ path: () => '/', verify: (s, body) => s === 200 && body.includes('world') });
    const monolithBook = single(idRead('/v2/book/', () => pick(ids.books)));
    const monolithMovie = single(idRead('/v2/movie/subject/', () => pick(ids.movies)));
    const bMeter = new CpuMeter(new Map([['B', b.proc.pid]]));
    const B = await scenario('hello world', 'B', b.url, hello, bMeter);
    const mBook = await scenario('GET /v2/book/:id', 'M', m.url, monolithBook);
    const mMovie = await scenario('GET /v2/movie/subject/:id', 'M', m.url, monolithMovie);
    const baseB = { name: 'B' as const, url: b.url, target: hello };
    const echo = await paired('gateway → NATS → service echo', stack.baseUrl, single({ path: () => '/_bench/echo?n=x', verify: (s, body) => s === 200 && body.includes('"echo":"x"') }), baseB);
    const warmBook = await paired('GET /v2/book/:id warm', stack.baseUrl, single(idRead('/v2/book/', () => pick(hotBooks), premium)), baseB);
    const coldBook = await paired('GET /v2/book/:id cold', cold.baseUrl, single(idRead('/v2/book/', () => pick(ids.books), premium)), { name: 'M', url: m.url, target: monolithBook });
    const warmMovie = await paired('GET /v2/movie/subject/:id warm', stack.baseUrl, single(idRead('/v2/movie/subject/', () => pick(hotMovies), premium)), baseB,
      { name: 'R', url: replay.url, target: single(idRead('/v2/movie/subject/', () => pick(hotMovies))) });
    // R has done its part; it stays out of the rounds that follow
    await replay.proc.stop();
    const coldMovie = await paired('GET /v2/movie/subject/:id cold', cold.baseUrl, single(idRead('/v2/movie/subject/', () => pick(ids.movies), premium)), { name: 'M', url: m.url, target: monolithMovie });
    // the web page of a book's `alt` (docs/api/web.md), from the gateway's page cache
    const warmPage = await paired('GET /web/book/subject/:id/ warm (web page)', stack.baseUrl, single(pageRead('/web/book/subject/', () => pick(hotBooks))), baseB);
    await scenario('GET /v2/book/:id warm, fields + JSONP', 'stack', stack.baseUrl, single({
      ...idRead('/v2/book/', () => pick(hotBooks), premium, '?fields=id,title,rating&callback=cb'),
      verify: (s, body, ctx) => s === 200 && body.startsWith('/**/cb(') && body.includes(`"id":"${ctx.id as string}"`),
    }));
    // what a signed-in user does most, none of it answered by the response cache (docs/PERFORMANCE.md, "Search and lists: what the cache cannot answer"): each
    // paired with B, on the gateway without response cache
    const words = [...ZH_WORDS, ...EN_WORDS];
    const asApp = () => ({ authorization: `Bearer ${premium}` });
    const bookSearch = await paired('GET /v2/book/search?q= (cold)', cold.baseUrl, single({
      path: () => `/v2/book/search?q=${encodeURIComponent(pick(words))}&count=20`, headers: asApp,
      verify: (s, body) => s === 200 && body.includes('"books":'),
    }), baseB);
    const tagSearch = await paired('GET /v2/book/search?tag= (cold)', cold.baseUrl, single({
      path: () => `/v2/book/search?tag=${encodeURIComponent(pick(ids.bookTags))}&count=20`, headers: asApp,
      verify: (s, body) => s === 200 && body.includes('"books":'),
    }), baseB);
    const movieSearch = await paired('GET /v2/movie/search?q= (cold)', cold.baseUrl, single({
      path: () => `/v2/movie/search?q=${encodeURIComponent(pick(words))}`, headers: asApp,
      verify: (s, body) => s === 200 && body.includes('"subjects":'),
    }), baseB);
    await scenario('GET /v2/movie/in_theaters', 'stack', stack.baseUrl, single({
      path: () => '/v2/movie/in_theaters',
      headers: asApp,
      verify: (s, body) => s === 200 && body.includes('"subjects":'),
    }));
    const writes = await paired('write mix (collection POST/PUT/DELETE, note, like)', stack.baseUrl, writeMix(userTokens, ids.books), baseB);
    // no write lost or counted twice: every derived counter equals its source after the burst
    const counters = runs('write mix') ? checkCounters(stack.natsUrlAs('reconcile')) : undefined;
    if (counters) say(`    counters after the write mix: ${counters.ok ? 'every one equals its source' : `drift: ${counters.detail}`}`);
    // the response cache while the mix writes half the catalogue: the other half's second reads
    // are answered by it; users of their own, so that no entry the mix above left behind meets a POST
    let readsWhileWriting: ReadsDuringWrites | undefined;
    if (runs('book reads during the write mix')) {
      say('  book reads during the write mix (stack)...');
      const otherTokens = await signIn(ids.users.slice(3 + LOAD.connections, 3 + 2 * LOAD.connections));
      const half = Math.floor(ids.books.length / 2);
      readsWhileWriting = await readsDuringWrites(stack.baseUrl, stack.adminUrl, writeMix(otherTokens, ids.books.slice(0, half)), ids.books.slice(half, half + 300), premium,
        { connections: otherTokens.length, durationSeconds: quick ? 4 : 10 });
      const w = readsWhileWriting;
      say(`    ${w.hits} of ${w.secondReads} second reads from the cache; writes ${Math.round(w.writes.rps)} req/s, errors ${w.writes.errors}${w.writesOutlastedReads ? '' : ' (the writes ended before the reads)'}`);
    }
    // a user's lists and an event's participants: each writer gets 20 entries of each first
    const perUser = quick ? 5 : 20;
    // the lists' data is made when any of them runs (BENCH_ONLY may name one alone)
    const listsRun = Object.values(LIST_SCENARIOS).some(runs);
    let event: string | undefined;
    if (listsRun) {
      await Promise.all(userTokens.map(async (token, i) => {
        for (let k = 0; k < perUser; k++) {
          const book = ids.books[(i * 97 + k) % ids.books.length];
          await form(`${stack.baseUrl}/v2/book/${book}/collection`, { status: 'read', rating: '3' }, token);
          await form(`${stack.baseUrl}/v2/book/${book}/annotations`, { content: `第 ${k + 1} 条批注：这一章写得很好，值得再读一遍。`, page: String(k + 1) }, token);
          await form(`${stack.baseUrl}/v2/notes`, { title: `Note ${k + 1}`, content: 'A note written for the list benchmark.' }, token);
        }
      }));
      // the first event that takes participants, with every writer in it
      for (const id of ids.events) {
        if ((await form(`${stack.baseUrl}/v2/event/${id}/participants`, {}, userTokens[0])).status !== 202) continue;
        event = id;
        for (const token of userTokens.slice(1)) await form(`${stack.baseUrl}/v2/event/${id}/participants`, {}, token);
        break;
      }
    }
    const userList = (name: string, path: (user: { id: string; uid: string }) => string, listKey: string, token: (i: number) => string) => {
      const step: Step = {
        path: (ctx) => {
          ctx.i = Math.floor(Math.random() * writers.length);
          return path(writers[ctx.i as number]);
        },
        headers: (ctx) => ({ authorization: `Bearer ${token(ctx.i as number)}` }),
        verify: (s, body) => s === 200 && body.includes(`"${listKey}":[{`),
      };
      return paired(name, cold.baseUrl, single(step), baseB);
    };
    const lists = [
      await userList(LIST_SCENARIOS.collections, (u) => `/v2/book/user/${u.uid}/collections`, 'collections', () => premium),
      await userList(LIST_SCENARIOS.annotations, (u) => `/v2/book/user/${u.uid}/annotations`, 'annotations', () => premium),
      // notes are read by signed-in users: each asks for their own
      await userList(LIST_SCENARIOS.notes, (u) => `/v2/note/user_created/${u.id}`, 'notes', (i) => userTokens[i]),
      await paired(LIST_SCENARIOS.participants, cold.baseUrl, single({
        path: () => `/v2/event/${event ?? ids.events[0]}/participants`, headers: asApp,
        verify: (s, body) => s === 200 && body.includes('"users":[{'),
      }), baseB),
    ];

    // ratios not measured in pairs come from the standalone baseline rounds
    for (const s of results) {
      s.vsB ??= s.rps / B.rps;
      if (s.name.startsWith('GET /v2/book/:id') && !s.name.includes('fields')) s.vsM ??= s.rps / mBook.rps;
      if (s.name.startsWith('GET /v2/movie/subject/:id')) s.vsM ??= s.rps / mMovie.rps;
    }

    // latency at half the maximum rate of the hot read
    const stackRuns: PacedResult[] = [];
    const lighterStackRuns: PacedResult[] = [];
    let halfRun: PacedResult = { rate: 0, sent: 0, errors: 0, p50: NaN, p99: NaN };
    if (runs('half-rate')) {
      const half = Math.max(50, Math.round(warmBook.rps / 2));
      const pacedSeconds = quick ? 1 : 5;
      // the same open-loop load on B, round for round, tells the machine's and the client's own tail
      // from the stack's; a discarded first run opens the client's connections and warms the JIT.
      // The client runs in a process of its own on CPU 0, the server under test on CPU 1: B, or the
      // gateway, which answers this read alone (from its cache). The processes this read does not
      // reach (the services, the engines, M) move to CPU 0 for these rounds: their timers and runtime
      // threads, scheduled between the gateway's turns, were part of the tail measured.
      const gatewayPid = stackPids.get('gateway');
      const bystanders = [...stackPids.entries()].filter(([name]) => name !== 'gateway').map(([, pid]) => pid).concat(m.proc.pid);
      const client = await PacedClient.start();
      const pinned = pin(client.pid, 0) && pin(gatewayPid, 1) && pin(b.proc.pid, 1) && bystanders.every((pid) => pin(pid, 0));
      const hotRead = (rate: number) => client.run({ url: `${stack.baseUrl}/v2/book/${hotBooks[0]}`, rate, seconds: pacedSeconds, headers: { authorization: `Bearer ${premium}` }, expect: { status: 200, bodyIncludes: `"id":"${hotBooks[0]}"` } });
      const bareRead = (rate: number) => client.run({ url: `${b.url}/`, rate, seconds: pacedSeconds, headers: {}, expect: { status: 200, bodyIncludes: 'world' } });
      const bareRuns: PacedResult[] = [];
      // CPU per request of the server under test, at half rate and at lighter open-loop loads
      const gatewayCost = new OpenLoopCost(gatewayPid);
      const bareCost = new OpenLoopCost(b.proc.pid);
      try {
        await hotRead(half);
        await bareRead(half);
        say(`  warm GET /v2/book/:id at half its maximum rate (${half} req/s, open loop), alternating with B...`);
        for (let i = 0; i < PACED_ROUNDS; i++) {
          const own = await gatewayCost.measure(0.5, () => hotRead(half));
          const bare = await bareCost.measure(0.5, () => bareRead(half));
          stackRuns.push(own);
          bareRuns.push(bare);
          const tail = (r: PacedResult) => `p50 ${r.p50.toFixed(2)} p99 ${r.p99.toFixed(2)} ms (${(r.p99 / r.p50).toFixed(1)} ×)`;
          say(`    round ${i + 1}: stack ${tail(own)}, errors ${own.errors} | B ${tail(bare)}`);
        }
        for (const fraction of quick ? [] : LIGHTER_LOADS) {
          lighterStackRuns.push(await gatewayCost.measure(fraction, () => hotRead(Math.round(warmBook.rps * fraction))));
          await bareCost.measure(fraction, () => bareRead(Math.round(warmBook.rps * fraction)));
        }
      } finally {
        await client.stop();
        for (const pid of [gatewayPid, b.proc.pid, ...bystanders]) unpin(pid);
      }
      halfRun = medianPaced(stackRuns);
      const bareRun = medianPaced(bareRuns);
      report.halfRate = { rate: half, rounds: PACED_ROUNDS, seconds: pacedSeconds, pinned, p50: halfRun.p50, p99: halfRun.p99, bareP50: bareRun.p50, bareP99: bareRun.p99 };
      report.openLoopCost = {
        closed: { connections: LOAD.connections, rate: warmBook.rps, gateway: report.cpu.find((c) => c.scenario === 'GET /v2/book/:id warm')?.micros.gateway, b: bMeter.perRequest(B.requests).B },
        points: gatewayCost.points().map((p) => ({ fraction: p.fraction, rate: Math.round(warmBook.rps * p.fraction), gateway: p.micros, b: bareCost.at(p.fraction) })),
      };
    }

    for (const [name, proc] of stack.apps) {
      const mem = memoryOf(proc.pid);
      if (mem && idle.has(name)) report.memory.push({ process: name, idleMb: idle.get(name) ?? 0, peakMb: mem.peak });
    }
    if (stack.mongo) report.memory.push({ process: stack.mongo.kind, idleMb: idle.get(stack.mongo.kind) ?? 0, peakMb: memoryOf(stack.mongo.process.pid)?.peak ?? 0 });
    if (stack.nats) report.memory.push({ process: 'nats-server', idleMb: idle.get('nats-server') ?? 0, peakMb: memoryOf(stack.nats.process.pid)?.peak ?? 0 });
    const idleTotal = report.memory.reduce((a, r) => a + r.idleMb, 0);
    report.memory.push({ process: '**whole stack**', idleMb: idleTotal, peakMb: report.memory.reduce((a, r) => a + r.peakMb, 0) });

    // what metrics and tracing cost: the book reads on three stacks of their own, after the memory
    // readings (they share this stack's database, whose peak would otherwise count their reads)
    if (runs('cost')) {
      say('  metrics and tracing: metrics off, metrics on, traced...');
      const cost = await measureCost({
        main: stack, dataDir, env: stackEnv, hotBooks, books: ids.books, token: premium, load: LOAD,
        warmCycles: B_RATIO_ROUNDS, coldCycles: ROUNDS, protocol: OTLP_PROTOCOL, say,
      });
      report.cost = cost;
      for (const row of cost.rows) report.cpu.push({ scenario: `GET /v2/book/:id ${row.read}, ${row.config}`, micros: row.cpu });
    }

    await m.proc.stop();
    await stack.stop();
    await b.proc.stop();

    if (runs('scaling')) {
      // the local branch is what npm start runs, the MongoDB branch what production runs (docs/ENGINES.md)
      const sizes = process.env.BENCH_SCALING_SIZES?.split(',').map(Number) ?? (quick ? [1000] : [1000, 10_000, 100_000]);
      // the quick run (npm test's check that the benchmark works) takes the local branch only, for time
      const branches = (process.env.BENCH_SCALING_BRANCHES?.split(',') as Branch[] | undefined) ?? (quick ? ['local'] : ['local', 'mongodb']);
      for (const branch of branches) report.scale.push(...(await measureScaling(join(dataDir, `scale-${branch}`), sizes, say, branch, fairShares)));
    }

    const check = (target: string, measured: string, ok: boolean, seeAlso?: string): TargetCheck => ({ target, measured, ok, seeAlso });
    // every load in the report counts: the scenarios, the half-rate rounds and the lighter open-loop ones
    const growth = (branch: 'local' | 'mongodb') => report.scale.filter((r) => r.branch === branch);
    // the MongoDB branch's growth rows on FerretDB may time out by design (report.ts says why): not counted here
    const allErrors = [...results, ...stackRuns, ...lighterStackRuns, ...(report.cost?.rows ?? []), ...growth('local'), ...(readsWhileWriting ? [readsWhileWriting.writes] : [])].reduce((a, r) => a + r.errors, 0);
    // a run of some scenarios only (BENCH_ONLY) checks no target
    if (!only) report.targets = [
      check('echo ≥ 0.30 × B', `${echo.ratio.toFixed(2)} × B`, echo.ratio >= 0.3),
      check('warm GET /v2/book/:id ≥ 0.50 × B and > M', `${warmBook.ratio.toFixed(2)} × B, ${(warmBook.rps / mBook.rps).toFixed(2)} × M`, warmBook.ratio >= 0.5 && warmBook.rps > mBook.rps),
      check('warm GET /v2/movie/subject/:id ≥ 0.50 × B and > M', `${warmMovie.ratio.toFixed(2)} × B, ${(warmMovie.rps / mMovie.rps).toFixed(2)} × M${warmMovie.reference ? ` (R, bare fastify sending the same answers: ${warmMovie.reference.ratio.toFixed(2)} × B)` : ''}`,
        warmMovie.ratio >= 0.5 && warmMovie.rps > mMovie.rps, 'docs/PERFORMANCE.md'),
      check('warm web page of a book ≥ 0.30 × B', `${warmPage.ratio.toFixed(2)} × B`, warmPage.ratio >= 0.3, 'docs/api/web.md'),
      // raised from 0.6 × M (docs/PERFORMANCE.md, "Targets, and what limits each")
      check('cold GET /v2/book/:id ≥ 1.0 × M', `${coldBook.ratio.toFixed(2)} × M`, coldBook.ratio >= 1.0, 'docs/PERFORMANCE.md'),
      check('cold GET /v2/movie/subject/:id ≥ 1.0 × M', `${coldMovie.ratio.toFixed(2)} × M`, coldMovie.ratio >= 1.0, 'docs/PERFORMANCE.md'),
      // the branches the run measured (the quick run: the local branch only)
      ...(['local', 'mongodb'] as const).filter((branch) => growth(branch).length > 0).map((branch) => {
        const rows = growth(branch);
        const first = rows[0];
        const last = rows[rows.length - 1];
        return check(`GET by id flat from ${first?.books} to ${last?.books} books (p50 within 2×), ${branch} branch`, first && last ? `p50 ${first.coldByIdP50} → ${last.coldByIdP50} ms` : 'n/a',
          Boolean(first && last && last.coldByIdP50 <= Math.max(2 * first.coldByIdP50, first.coldByIdP50 + 2)));
      }),
      // on MongoDB no process holds a copy of the catalogue, so the book service does not grow with it
      ...growth('mongodb').length === 0 ? [] : [((rows) => check(`book service RSS on the MongoDB branch flat from ${rows[0]?.books} to ${rows[rows.length - 1]?.books} books (within 64 MiB)`,
        rows.length ? rows.map((r) => `${r.bookRssMiB ?? '?'}`).join(' → ') + ' MiB' : 'n/a',
        rows.length > 0 && rows.every((r) => r.bookRssMiB !== undefined && r.bookRssMiB <= (rows[0].bookRssMiB ?? 0) + 64)))(growth('mongodb'))],
      // a median above the full-rate one means the stack fell behind the load, and then any ratio is meaningless
      check('p99 at half the maximum rate ≤ 10 × p50 (p50 no worse than at full rate)', `p50 ${halfRun.p50.toFixed(2)} ms, p99 ${halfRun.p99.toFixed(2)} ms`,
        halfRun.p99 <= 10 * halfRun.p50 && halfRun.p50 <= Math.max(1, warmBook.p50), 'docs/PERFORMANCE.md'),
      ...(report.cost ? costTargets(report.cost) : []),
      // what a signed-in user does most, uncached (docs/PERFORMANCE.md, "Search and lists: what the cache cannot answer")
      ...[bookSearch, tagSearch, movieSearch].map((r, i) => check(`uncached ${['book search by q', 'book search by tag', 'movie search'][i]} ≥ 0.03 × B, p99 ≤ 100 ms`,
        `${r.ratio.toFixed(3)} × B, p99 ${r.p99} ms`, r.ratio >= 0.03 && r.p99 <= 100, 'docs/PERFORMANCE.md')),
      ...lists.map((r, i) => check(`${["a user's collections", "a user's annotations", "a user's notes", "an event's participants"][i]} ≥ 0.05 × B, p99 ≤ 100 ms`,
        `${r.ratio.toFixed(3)} × B, p99 ${r.p99} ms`, r.ratio >= 0.05 && r.p99 <= 100, 'docs/PERFORMANCE.md')),
      check('write mix ≥ 0.02 × B, p99 ≤ 250 ms, every counter equal to its source after it', `${writes.ratio.toFixed(3)} × B, p99 ${writes.p99} ms, counters ${counters?.ok ? 'equal' : 'drifted'}`,
        writes.ratio >= 0.02 && writes.p99 <= 250 && Boolean(counters?.ok), 'docs/PERFORMANCE.md'),
      check('book reads during the write mix, of books it leaves alone: every second read answered by the response cache', readsWhileWriting
        ? `${readsWhileWriting.hits} of ${readsWhileWriting.secondReads}, writes ${Math.round(readsWhileWriting.writes.rps)} req/s${readsWhileWriting.writesOutlastedReads ? '' : ' (ended before the reads)'}`
        : 'not run', Boolean(readsWhileWriting && readsWhileWriting.secondReads > 0 && readsWhileWriting.hits === readsWhileWriting.secondReads && readsWhileWriting.writesOutlastedReads), 'docs/PERFORMANCE.md'),
      check('no errors or timeouts in any scenario', `${allErrors} errors`, allErrors === 0),
      check('whole stack idle RSS < 700 MB', `${idleTotal} MiB`, idleTotal * 1.048576 < 700),
      check('start to ready < 15 s after a build', `${(startToReadyMs / 1000).toFixed(1)} s`, startToReadyMs < 15_000),
    ];
  } finally {
    for (const proc of baselines) await proc.stop().catch(() => undefined);
    await stack.stop().catch(() => undefined);
    await b.proc.stop().catch(() => undefined);
  }

  const markdown = renderMarkdown(report);
  const out = only ? join(root, 'tmp', 'bench-only.md') : quick ? join(root, 'tmp', 'bench-quick.md') : join(root, 'docs', 'BENCHMARKS.md');
  mkdirSync(join(out, '..'), { recursive: true });
  writeFileSync(out, markdown);
  say(`\n${markdown}\nwritten to ${out} in ${Math.round((Date.now() - started) / 1000)} s`);
  if (!process.env.KEEP_BENCH_DATA) rmSync(dataDir, { recursive: true, force: true });
  const missed = report.targets.filter((t) => !t.ok);
  if (!quick && missed.length > 0) {
    say(`targets missed: ${missed.map((t) => t.target).join('; ')}`);
    process.exit(1);
  }
  process.exit(0);
}

main().catch((err: unknown) => {
  process.stderr.write(`${(err as Error).stack ?? err}\n`);
  process.exit(1);
});
