import { Type } from 'class-transformer';
import { IsDefined, IsInt, IsOptional, Matches, Max, Min } from 'class-validator';
import { defineMessage, ServiceName } from '../messaging/define-message';
import { PictureFormat, PictureFormats } from '../common/picture';

/**
 * Export of a user's own records (docs/api/export.md): the gateway asks each area that keeps
 * them for one page at a time and writes each page into the archive as the client reads it, so no
 * process ever holds a whole export.
 */
export const EXPORT_CURSOR = /^[0-9]{1,2}(\.[A-Za-z0-9_-]{1,200})?$/;
export const EXPORT_PAGE_MAX = 500;

export class ExportPageRequest {
  @IsDefined() @Matches(/^[0-9]{1,30}$/) user_id!: string;
  /** The `next` of the previous page; absent: the first page. */
  @IsOptional() @Matches(EXPORT_CURSOR) cursor?: string;
  @IsOptional() @Type(() => Number) @IsInt() @Min(1) @Max(EXPORT_PAGE_MAX) limit?: number;
}

/** One line of the archive: a record of Plaza's import format (docs/api/import.md), `kind` first. */
export type ExportRecord = { kind: string } & Record<string, unknown>;

/** A stored picture a record of the page names by its archive path (`file`). */
export interface ExportPicture {
  key: string;
  format: PictureFormat;
  /** Path in the archive, `pictures/<key>.<extension>`; the records name it. */
  file: string;
}

export interface ExportPageResponse {
  records: ExportRecord[];
  pictures: ExportPicture[];
  /** The cursor of the next page; absent: the area has no more. */
  next?: string;
}

/** `<service>.v1.export.page`: one page of the user's records in the area, in a stable order. */
export const exportPageMessage = (service: ServiceName) =>
  defineMessage<ExportPageRequest, ExportPageResponse>(`${service}.v1.export.page`, ExportPageRequest);

/** The areas that keep a user's records, in the order the archive lists them (identity's user first). */
export const ExportedServices: ServiceName[] = ['identity', 'book', 'note', 'event'];

/**
 * An archive picture the importer stored under its own key before the records that name it
 * (docs/api/export.md, "Importing the archive"): what the importer puts in place of the
 * `pictures/<key>.<ext>` path in an annotation's or note's `photos`, so the owning service keeps
 * the key (and with it the picture's address) without reading the bytes again.
 */
export interface ImportedPicture {
  key: string;
  format: PictureFormat;
  width: number;
  height: number;
  size: number;
}

export const ARCHIVE_PICTURE_PATH = /^pictures\/((book|note)-[0-9a-f]{32})\.([a-z]{3,4})$/;

/** The picture a `photos` value names, when it is one the importer stored for `area`; undefined otherwise. */
export function importedPicture(value: unknown, area: 'book' | 'note'): ImportedPicture | undefined {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const v = value as Record<string, unknown>;
  const ok =
    typeof v.key === 'string' && new RegExp(`^${area}-[0-9a-f]{32}$`).test(v.key) &&
    typeof v.format === 'string' && (PictureFormats as readonly string[]).includes(v.format) &&
    [v.width, v.height, v.size].every((n) => typeof n === 'number' && Number.isInteger(n) && n >= 0);
  return ok ? { key: v.key as string, format: v.format as PictureFormat, width: v.width as number, height: v.height as number, size: v.size as number } : undefined;
}
