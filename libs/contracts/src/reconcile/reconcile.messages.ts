import { IsBoolean, IsOptional } from 'class-validator';
import { defineMessage, ServiceName } from '../messaging/define-message';

export class ReconcileRequest {
  /** false: only report what differs (a dry run); true or absent: also repair it. */
  @IsOptional() @IsBoolean() repair?: boolean;
}

/** One stored value that differed from what its source says. */
export interface Drift {
  /** What kind of record and value, e.g. `note.liked_count`, `book.user_rating`, `note_like.orphan`. */
  kind: string;
  /** The record's id. */
  id: string;
  stored: unknown;
  /** The value recomputed from the source. */
  source: unknown;
}

export interface ReconcileResponse {
  service: ServiceName;
  /** How many records of each kind were compared with their sources. */
  checked: Record<string, number>;
  /** How many values differed, by kind (0 everywhere: nothing had drifted). */
  drifted: Record<string, number>;
  /** How many of them were repaired (0 on a dry run). */
  repaired: number;
  /** Up to 50 of the differences, for the operator. */
  samples: Drift[];
  /** Targets left out because a write of them was under way (each is recounted by that write or the service's repair sweep). */
  busy: number;
  /** Entries of the service's repair journal found, and how many the sweep that ran first settled. */
  journal: { entries: number; repaired: number; removed: number };
  ms: number;
}

/**
 * `<service>.v1.reconcile.run` (note, event, book): recomputes every derived counter and aggregate
 * of the service from its source, reports what differed and repairs it (`npm run reconcile`,
 * the Kubernetes CronJob). Safe while traffic flows: docs/RELIABILITY.md, "Crash consistency".
 */
export const reconcileMessage = (service: ServiceName) => defineMessage<ReconcileRequest, ReconcileResponse>(`${service}.v1.reconcile.run`, ReconcileRequest);

/** The services that own derived counters or aggregates, in the order `npm run reconcile` asks them. */
export const ReconciledServices: ServiceName[] = ['note', 'event', 'book'];
