import { metricsEnabled } from '@plaza/platform';
import { Counter, register } from 'prom-client';
import type { EngineBranch } from './database-mode';

/**
 * How often each engine-specific code path ran, by its name and the branch taken. Served on the
 * service's `/metrics` as `plaza_engine_branch_runs_total{branch, mode}` (on prom-client's default
 * registry, beside the platform's metrics): the e2e runs read it at their end and fail when a
 * branch of the list in apps/api-e2e/src/support/engine-branches.ts never ran in their mode.
 */
const METRIC = 'plaza_engine_branch_runs_total';

const runs = new Map<string, number>();
let counter: Counter<'branch' | 'mode'> | undefined;

function metric(): Counter<'branch' | 'mode'> | undefined {
  if (!metricsEnabled()) return undefined;
  counter ??=
    (register.getSingleMetric(METRIC) as Counter<'branch' | 'mode'> | undefined) ??
    new Counter({ name: METRIC, help: 'Engine-specific code paths run, by name and branch (mongodb or local; docs/ENGINES.md)', labelNames: ['branch', 'mode'] });
  return counter;
}

export function recordEngineBranch(name: string, mode: EngineBranch): void {
  const key = `${name} ${mode}`;
  runs.set(key, (runs.get(key) ?? 0) + 1);
  metric()?.labels(name, mode).inc();
}

/** What ran in this process, `"<name> <mode>"` → count (unit tests). */
export function engineBranchRuns(): ReadonlyMap<string, number> {
  return runs;
}
