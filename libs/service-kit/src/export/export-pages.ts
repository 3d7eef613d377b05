import { EXPORT_PAGE_MAX, ExportPageRequest, ExportPageResponse, ExportPicture, ExportRecord } from '@plaza/contracts';
import type { Connection } from 'mongoose';

/** What one stored document of the user's becomes in the archive. */
export interface ExportedDocument {
  record: ExportRecord;
  pictures?: ExportPicture[];
}

/** One collection of the user's records: read in `_id` order, a page at a time. */
export interface ExportStep {
  collection: string;
  /** The user's documents; it must name the user (an owner filter), never be empty. */
  filter: Record<string, unknown>;
  toRecord(doc: Record<string, unknown>): ExportedDocument;
}

export const EXPORT_PAGE_DEFAULT = 200;

/**
 * `<service>.v1.export.page` (docs/api/export.md): one page of one step, after the `_id` the
 * cursor names. The cursor is `<step>` or `<step>.<last _id, JSON in base64url>`, so a page is one
 * ranged read in `_id` order on both engines and nothing is held between pages.
 */
export async function readExportPage(connection: Connection, steps: ExportStep[], req: ExportPageRequest): Promise<ExportPageResponse> {
  const limit = Math.min(req.limit ?? EXPORT_PAGE_DEFAULT, EXPORT_PAGE_MAX);
  const { step, after } = parseCursor(req.cursor);
  if (step >= steps.length) return { records: [], pictures: [] };
  const current = steps[step];
  // $and, not a spread: a step's own `_id` filter (identity's user) must not be replaced by the cursor's
  const filter = after === undefined ? current.filter : { $and: [current.filter, { _id: { $gt: after } }] };
  const docs = (await connection.collection(current.collection).find(filter).sort({ _id: 1 }).limit(limit).toArray()) as Array<Record<string, unknown>>;
  const records: ExportRecord[] = [];
  const pictures: ExportPicture[] = [];
  for (const doc of docs) {
    const exported = current.toRecord(doc);
    records.push(exported.record);
    pictures.push(...(exported.pictures ?? []));
  }
  let next: string | undefined;
  if (docs.length === limit) next = `${step}.${encodeId(docs[docs.length - 1]._id)}`;
  else if (step + 1 < steps.length) next = String(step + 1);
  return { records, pictures, ...(next === undefined ? {} : { next }) };
}

function parseCursor(cursor: string | undefined): { step: number; after?: unknown } {
  if (!cursor) return { step: 0 };
  const [step, id] = cursor.split('.');
  if (id === undefined) return { step: Number(step) };
  let after: unknown;
  try {
    after = JSON.parse(Buffer.from(id, 'base64url').toString('utf8'));
  } catch {
    after = undefined;
  }
  // ids are strings or numbers; anything else is not a cursor this code wrote
  if (typeof after !== 'string' && typeof after !== 'number') return { step: Number.MAX_SAFE_INTEGER };
  return { step: Number(step), after };
}

function encodeId(id: unknown): string {
  return Buffer.from(JSON.stringify(id), 'utf8').toString('base64url');
}

/** ISO 8601, which every import kind reads (docs/api/import.md), whatever the service's time zone. */
export function exportTime(value: unknown): string | undefined {
  return value instanceof Date ? value.toISOString() : typeof value === 'string' ? value : undefined;
}
