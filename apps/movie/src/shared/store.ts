import type { Collection } from 'mongoose';

/** The driver collection behind a mongoose model (`model.collection`). */
type Document = Record<string, unknown>;
import { isDeepStrictEqual } from 'node:util';

export type PutOutcome = 'inserted' | 'replaced' | 'unchanged';

export const isDuplicateKey = (err: unknown) => (err as { code?: number })?.code === 11000;

/** Drops `undefined` members (the driver would store them as null), keeping Dates and nested arrays. */
export function compact<T>(value: T): T {
  if (Array.isArray(value)) return value.map((v) => compact(v)) as T;
  if (value && typeof value === 'object' && !(value instanceof Date)) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) if (v !== undefined) out[k] = compact(v);
    return out as T;
  }
  return value;
}

/**
 * Stores a document by `_id` and tells what changed, so an import of the same record twice
 * writes nothing and derived views are only touched when needed.
 *
 * Insert first: on FerretDB v1 an insert is cheap while an update or an upsert of a missing
 * document scans the table, so a first load (every record new) stays fast. An existing document
 * is replaced only when it differs. Written through the driver so the stored document is exactly
 * the one built here (mongoose would cast and minimise it).
 */
export async function putById<T extends { _id: string }>(collection: Collection<Document>, doc: T): Promise<{ outcome: PutOutcome; previous: T | null }> {
  const clean = compact(doc);
  try {
    await collection.insertOne(clean as Document);
    return { outcome: 'inserted', previous: null };
  } catch (err) {
    if (!isDuplicateKey(err)) throw err;
  }
  const previous = (await collection.findOne({ _id: doc._id } as Document)) as T | null;
  if (previous && isDeepStrictEqual(previous, clean)) return { outcome: 'unchanged', previous };
  await collection.replaceOne({ _id: doc._id } as Document, clean as Document, { upsert: true });
  return { outcome: 'replaced', previous };
}

/**
 * Creates a document, or when one with that `_id` exists, changes it: `create()` builds the new
 * document, `change(current)` the fields to set (skipped when they already hold these values).
 * Insert first, for the reason given at putById. Callers hold the document's lock.
 */
export async function createOrChange<T extends { _id: string }>(
  collection: Collection,
  create: () => T,
  change: (current: T) => Partial<T>,
): Promise<{ created: boolean; previous: T | null }> {
  const doc = compact(create());
  try {
    await collection.insertOne(doc as Document);
    return { created: true, previous: null };
  } catch (err) {
    if (!isDuplicateKey(err)) throw err;
  }
  const current = (await collection.findOne({ _id: doc._id } as Document)) as T | null;
  if (!current) throw new Error(`document ${doc._id} vanished while being changed`);
  await setFields(collection, current, change(current));
  return { created: false, previous: current };
}

/** `$set` of some fields of one document, skipped when they already hold these values. */
export async function setFields<T extends { _id: string }>(
  collection: Collection<Document>,
  current: T,
  fields: Partial<T>,
): Promise<boolean> {
  const clean = compact(fields) as Record<string, unknown>;
  const changed = Object.entries(clean).filter(([k, v]) => !isDeepStrictEqual((current as Record<string, unknown>)[k], v));
  if (changed.length === 0) return false;
  await collection.updateOne({ _id: current._id } as Document, { $set: Object.fromEntries(changed) });
  return true;
}

/** Runs `task` over `items` with at most `limit` at a time (parallel findById, not `$in`). */
export async function mapLimit<T, R>(items: readonly T[], limit: number, task: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await task(items[i], i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
