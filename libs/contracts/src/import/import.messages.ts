import { Type } from 'class-transformer';
import { IsArray, IsInt, IsObject, IsOptional, IsString, Min, ValidateNested } from 'class-validator';
import { defineMessage, ServiceName } from '../messaging/define-message';

/** docs/api/import.md: every record kind, and the service that owns it. */
export const ImportKindOwners = {
  user: 'identity',
  app: 'identity',
  friendship: 'identity',
  book: 'book',
  series: 'book',
  collection: 'book',
  book_review: 'book',
  annotation: 'book',
  movie: 'movie',
  celebrity: 'movie',
  movie_photo: 'movie',
  movie_review: 'movie',
  movie_comment: 'movie',
  celebrity_photo: 'movie',
  movie_list: 'movie',
  loc: 'event',
  event: 'event',
  event_participant: 'event',
  event_wisher: 'event',
  note: 'note',
  note_comment: 'note',
  note_like: 'note',
} as const satisfies Record<string, ServiceName>;

export type ImportKind = keyof typeof ImportKindOwners;
export const ImportKinds = Object.keys(ImportKindOwners) as ImportKind[];

/**
 * Kinds are loaded in this order so that references resolve (users before the friendships
 * and participations that name them, subjects before the lists that rank them).
 */
export const ImportOrder: ImportKind[] = [
  'user', 'app', 'friendship',
  'series', 'book', 'collection', 'book_review', 'annotation',
  'celebrity', 'movie', 'movie_photo', 'movie_review', 'movie_comment', 'celebrity_photo', 'movie_list',
  'loc', 'event', 'event_participant', 'event_wisher',
  'note', 'note_comment', 'note_like',
];

export class ImportLine {
  /** 1-based line number in the source file, echoed back in errors. */
  @IsInt() @Min(1) line!: number;
  @IsString() kind!: string;
  @IsObject() record!: Record<string, unknown>;
}

export class ImportBatch {
  @IsArray() @ValidateNested({ each: true }) @Type(() => ImportLine) lines!: ImportLine[];
  /**
   * The largest id of each sequenced kind (SEQUENCED_IMPORT_KINDS) in the whole file this batch
   * is part of, sent with every batch: the service moves its id sequences past them before it
   * writes anything, so a record written through the API during the import never takes an id a
   * later batch carries (docs/api/import.md, "Users' content keeps its ids").
   */
  @IsOptional() @IsObject() idsUpTo?: Record<string, number>;
}

/** Kinds of users' content whose ids the owning service also gives through the API, from a sequence. */
export const SEQUENCED_IMPORT_KINDS: readonly ImportKind[] = ['collection', 'book_review', 'annotation', 'note', 'note_comment'];

/**
 * An imported id of a sequenced kind: 1 to 15 digits (a safe integer), so the id sequences can be
 * moved past it exactly; the services' import records validate their ids with it.
 */
export const IMPORTED_CONTENT_ID = /^[0-9]{1,15}$/;

/** The largest valid id of each sequenced kind among `lines` (kinds without one are left out). */
export function largestSequencedIds(lines: readonly Pick<ImportLine, 'kind' | 'record'>[]): Record<string, number> {
  const largest: Record<string, number> = {};
  for (const { kind, record } of lines) {
    if (!SEQUENCED_IMPORT_KINDS.includes(kind as ImportKind)) continue;
    const id = typeof record.id === 'number' || typeof record.id === 'string' ? String(record.id) : '';
    if (IMPORTED_CONTENT_ID.test(id)) largest[kind] = Math.max(largest[kind] ?? 0, Number(id));
  }
  return largest;
}

/**
 * What a service reserves before it writes a batch: for each sequenced kind, the larger of the
 * file's largest id (`idsUpTo`, from the importer) and the batch's own. The batch's own covers a
 * sender that does not send `idsUpTo`; a value that is not a safe non-negative integer is ignored.
 */
export function idsToReserve(batch: ImportBatch): Record<string, number> {
  const reserve = largestSequencedIds(batch.lines);
  for (const [kind, id] of Object.entries(batch.idsUpTo ?? {})) {
    if (SEQUENCED_IMPORT_KINDS.includes(kind as ImportKind) && Number.isSafeInteger(id) && id > 0) reserve[kind] = Math.max(reserve[kind] ?? 0, id);
  }
  return reserve;
}

export interface ImportLineResult {
  line: number;
  ok: boolean;
  error?: string;
}

export interface ImportBatchResult {
  results: ImportLineResult[];
}

/** `import.v1.<service>.batch`: upsert a batch of records; idempotent (upsert by id). */
export const importBatchMessage = (service: ServiceName) =>
  defineMessage<ImportBatch, ImportBatchResult>(`${service}.v1.import.batch`, ImportBatch);
