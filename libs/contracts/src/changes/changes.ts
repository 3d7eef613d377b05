import { IsInt, IsOptional, IsString, Matches, MaxLength, Min } from 'class-validator';
import { ToOptionalInt } from '../validation/validation-errors';

/**
 * The public catalogue's change feed (docs/api/changes.md): every create, update and delete of
 * these kinds, by the API or an import, is one message of the JetStream stream `CHANGES`, in
 * the order the stream stored them. The owning services publish; the gateways read.
 */
export const ChangeKinds = ['book', 'series', 'movie', 'celebrity', 'event', 'city'] as const;
export type ChangeKind = (typeof ChangeKinds)[number];
export type ChangeOp = 'create' | 'update' | 'delete';

/** Which service publishes each kind (its NATS user may publish only these subjects). */
export const ChangeKindOwners = {
  book: 'book', series: 'book', movie: 'movie', celebrity: 'movie', event: 'event', city: 'event',
} as const satisfies Record<ChangeKind, string>;

export const CHANGE_STREAM = 'CHANGES';
export const CHANGE_SUBJECT_PREFIX = 'changes.v1';
export const changeSubject = (kind: ChangeKind) => `${CHANGE_SUBJECT_PREFIX}.${kind}`;

/** How long the stream keeps a change: a cursor older than this must resync (410/1110). */
export const CHANGE_RETENTION_DAYS = 14;
/**
 * JetStream drops a second message with the same `Nats-Msg-Id` within this window: a change a
 * crash left unconfirmed is published again by the service's sweep (at start and every minute)
 * under its first id, and stored once.
 */
export const CHANGE_DUPLICATE_WINDOW_MS = 2 * 3600 * 1000;

/** One change as the stream stores it and the API shows it. */
export interface ChangeEntry {
  kind: ChangeKind;
  id: string;
  op: ChangeOp;
  /** When the change was written, `yyyy-MM-dd HH:mm:ss` in SERVICE_TIMEZONE. */
  at: string;
}

export interface ChangesPage {
  changes: ChangeEntry[];
  /** The cursor to send as `since` next; equal to the one sent when nothing is new. */
  next: string;
}

export const CHANGES_DEFAULT_COUNT = 100;
export const CHANGES_MAX_COUNT = 1000;

/** `GET /v2/changes` query (docs/api/changes.md). */
export class ChangesQuery {
  /** A cursor (`next` of an earlier page), or `now` for the current end; absent: the oldest change kept. */
  @IsOptional() @IsString() @MaxLength(20) @Matches(/^(now|[0-9]{1,16})$/) since?: string;
  /** Kinds separated by commas; absent: every kind. */
  @IsOptional() @IsString() @MaxLength(200) @Matches(/^\s*(book|series|movie|celebrity|event|city)\s*(,\s*(book|series|movie|celebrity|event|city)\s*)*$/) kinds?: string;
  /** How many changes at most (default 100, at most 1000). */
  @IsOptional() @ToOptionalInt() @IsInt() @Min(0) count?: number;
}
