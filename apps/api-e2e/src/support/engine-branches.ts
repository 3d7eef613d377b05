import type { Config } from '@jest/types';
import type { Stack } from '@plaza/stack';

/**
 * Every engine-specific step of the services (`DatabaseEngine.run` names, docs/ENGINES.md), by
 * service. Each e2e run (`e2e`: the local engine's branch under DATABASE_MODE=auto; `e2e-mongodb`:
 * the MongoDB branch) must have run every one of them in its mode: the services count the runs
 * on `/metrics` (`plaza_engine_branch_runs_total{branch, mode}`), read at the end of the run. A
 * step missing here, or listed but never run, fails the run, so a branch operators depend on can
 * never go untested.
 */
export const ENGINE_BRANCHES: Record<string, string[]> = {
  book: [
    'book.collections.by-id',
    'book.collections.by-books',
    'book.search',
    'book.books.by-ids',
    'book.books.replace',
    'book.books.search-upkeep',
    'book.books.user-aggregates',
    'book.aggregates.journal',
    'book.collections.replace',
    'book.collections.delete',
    'book.collections.upkeep',
    'book.collections.list',
    'book.collections.tags',
    'book.annotations.by-author',
    'book.annotations.upkeep',
    'change-feed.clear',
  ],
  movie: [
    'movie.search',
    'movie.search.upkeep',
    'movie.subject-views.change',
    'movie.subject-views.simples',
    'movie.subject-views.simples-upkeep',
    'movie.subject-views.by-id',
    'movie.subject-views.by-id-upkeep',
    'movie.celebrity-views.change',
    'movie.listings.change',
    'movie.lists.change',
    'change-feed.clear',
  ],
  note: ['note.notes.counters', 'note.counters.journal', 'note.notes.all-counters', 'note.notes.by-author', 'note.notes.upkeep', 'note.notes.by-id', 'note.likes.counts', 'note.comments.counts'],
  event: [
    'event.events.counters',
    'event.events.by-ids',
    'event.events.by-owner',
    'event.events.upkeep',
    'event.links.by-event',
    'event.links.by-user',
    'event.links.by-ids',
    'event.links.count',
    'event.links.upkeep',
    'event.participants.counts',
    'event.wishers.counts',
    'event.search',
    'change-feed.clear',
  ],
};

const METRIC = /^plaza_engine_branch_runs_total\{([^}]*)\}\s+(\d+(?:\.\d+)?)/;

/** `"<branch> <mode>"` → runs, from a service's /metrics. */
export function branchRunsOf(metricsText: string): Map<string, number> {
  const runs = new Map<string, number>();
  for (const line of metricsText.split('\n')) {
    const match = METRIC.exec(line);
    if (!match) continue;
    const labels = Object.fromEntries([...match[1].matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
    runs.set(`${labels.branch} ${labels.mode}`, Number(match[2]));
  }
  return runs;
}

/** What is wrong with the runs of `mode` seen per service: listed steps that never ran, steps not listed. */
export function engineBranchProblems(mode: 'mongodb' | 'local', seen: Record<string, Map<string, number>>): string[] {
  const problems: string[] = [];
  for (const [service, branches] of Object.entries(ENGINE_BRANCHES)) {
    const runs = seen[service] ?? new Map<string, number>();
    for (const branch of branches) if (!runs.get(`${branch} ${mode}`)) problems.push(`${service}: ${branch} never ran on the ${mode} branch`);
  }
  for (const [service, runs] of Object.entries(seen)) {
    for (const key of runs.keys()) {
      const [branch] = key.split(' ');
      if (!(ENGINE_BRANCHES[service] ?? []).includes(branch)) problems.push(`${service}: ${branch} runs but is not in ENGINE_BRANCHES (apps/api-e2e/src/support/engine-branches.ts)`);
    }
  }
  return problems;
}

/** True when jest ran every suite of its config (no path or name filter): only then must every branch have run. */
export function isCompleteRun(globalConfig: Config.GlobalConfig): boolean {
  const paths = (globalConfig as unknown as { testPathPatterns?: { isSet?: () => boolean } }).testPathPatterns;
  return !paths?.isSet?.() && !globalConfig.testNamePattern && !globalConfig.onlyChanged && !globalConfig.findRelatedTests && !globalConfig.shard;
}

/**
 * Reads every listed service's counts from the running stack and throws when a branch of `mode`
 * never ran (a complete run only; a run of a few suites just reports what it saw).
 */
export async function checkEngineBranches(stack: Stack, mode: 'mongodb' | 'local', globalConfig: Config.GlobalConfig, log: (line: string) => void): Promise<void> {
  const seen: Record<string, Map<string, number>> = {};
  for (const service of Object.keys(ENGINE_BRANCHES)) {
    const port = stack.healthPort(service);
    if (!port) continue;
    const res = await fetch(`http://127.0.0.1:${port}/metrics`).catch(() => undefined);
    if (res?.ok) seen[service] = branchRunsOf(await res.text());
  }
  const problems = engineBranchProblems(mode, seen);
  const summary = Object.entries(seen).map(([s, runs]) => `${s} ${[...runs].filter(([k]) => k.endsWith(` ${mode}`)).length}/${ENGINE_BRANCHES[s].length}`);
  log(`[e2e] engine branches run on the ${mode} branch: ${summary.join(', ')}`);
  if (problems.length === 0) return;
  const message = `engine branches not covered by this run:\n  - ${problems.join('\n  - ')}`;
  if (isCompleteRun(globalConfig)) throw new Error(message);
  log(`[e2e] (a partial run, not checked) ${message}`);
}
