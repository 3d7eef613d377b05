import type { Drift, ReconcileResponse } from '@plaza/contracts';
import { Logger, Metrics } from '@plaza/platform';
import type { SweepResult } from './repair-journal';

/** What a dry run reports as the journal's sweep: none ran. */
export const NO_SWEEP: SweepResult = { entries: 0, repaired: 0, failed: 0, removed: 0 };

/** How a service compares one parent (a note, an event) with its sources on its own. */
export interface ParentCheck {
  /** The parent's repair-journal target, e.g. `note:1042`. */
  target(id: string): string;
  /** Runs `task` under the lock the parent's writers hold (not re-entrant: `differences` must not take it). */
  exclusive<T>(id: string, task: () => Promise<T>): Promise<T>;
  /** The parent read fresh and its sources counted for it alone: how they differ ([] when they agree). */
  differences(id: string): Promise<Drift[]>;
  /** The journal's open targets, read now (RepairJournal.openTargets). */
  openTargets(): Promise<Set<string>>;
}

/**
 * Confirms the suspects of a reconcile's bulk pass one by one. The bulk pass reads the sources of
 * every parent and then the parents, so a write between those reads makes a parent differ though
 * nothing drifted. A suspect is drift only if, under its lock, it still differs from its sources
 * counted for it alone, no journal entry names it now (a write under way, or a dead one awaiting
 * its repair), and a second check finds the same difference (another instance's write, which this
 * process's lock does not hold back, may land between the parent's read and the count).
 * The others are in `busy` when a write of them is open, and dropped when they agree.
 */
export async function confirmDrifts(suspects: Iterable<string>, check: ParentCheck): Promise<{ drifts: Drift[]; busy: number }> {
  const drifts: Drift[] = [];
  let busy = 0;
  for (const id of suspects) {
    const first = await check.exclusive(id, () => check.differences(id));
    if (first.length === 0) continue;
    if ((await check.openTargets()).has(check.target(id))) {
      busy++;
      continue;
    }
    const again = await check.exclusive(id, () => check.differences(id));
    if (JSON.stringify(again) === JSON.stringify(first)) drifts.push(...again);
    else busy++;
  }
  return { drifts, busy };
}

/** Repairs each drifted parent once (a repair re-derives all of it); how many drifts that settled. */
export async function repairDrifts(drifts: Drift[], repair: (id: string) => Promise<unknown>): Promise<number> {
  for (const id of new Set(drifts.map((d) => d.id))) await repair(id);
  return drifts.length;
}

const MAX_SAMPLES = 50;

/** A reconcile's answer; counts its confirmed drifts in `plaza_reconcile_drift_total` and logs them. */
export function reconcileReport(
  service: ReconcileResponse['service'],
  run: { checked: Record<string, number>; drifts: Drift[]; repaired: number; busy: number; journal: SweepResult; started: number },
  logger: Pick<Logger, 'info' | 'warn'>,
): ReconcileResponse {
  const { checked, drifts, repaired, busy, journal } = run;
  const drifted: Record<string, number> = {};
  for (const d of drifts) drifted[d.kind] = (drifted[d.kind] ?? 0) + 1;
  for (const [kind, count] of Object.entries(drifted)) Metrics.reconcileDrift(kind, count);
  if (drifts.length > 0) logger.warn({ drifted, repaired, samples: drifts.slice(0, 10) }, 'reconcile: derived values differed from their sources');
  else logger.info({ checked, busy }, 'reconcile: every derived value equals its source');
  return {
    service, checked, drifted, repaired, samples: drifts.slice(0, MAX_SAMPLES), busy,
    journal: { entries: journal.entries, repaired: journal.repaired, removed: journal.removed }, ms: Date.now() - run.started,
  };
}
