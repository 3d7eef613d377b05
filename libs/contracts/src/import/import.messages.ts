import { Type } from 'class-transformer';
import { IsArray, IsInt, IsObject, IsString, Min, ValidateNested } from 'class-validator';
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
