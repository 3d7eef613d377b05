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
 * The filter of a write that must apply only to the version `rev` that was read (the repository's
 * `DatabaseEngine.versionFilter`): a compare-and-swap on MongoDB, `_id` alone on the local engine,
 * where the repository's per-document lock is the guard.
 */
export type VersionFilter = (id: string, rev: number | undefined) => Promise<Record<string, unknown>>;

/** How often a write that lost to another instance's is computed again before giving up (each loss means a write went through). */
const MAX_ATTEMPTS = 20;

const nextRev = (current: { rev?: number } | null) => (current?.rev ?? 0) + 1;

/**
 * Stores a document by `_id` and tells what changed, so an import of the same record twice
 * writes nothing and derived views are only touched when needed.
 *
 * Insert first: on FerretDB v1 an insert is cheap while an update or an upsert of a missing
 * document scans the table, so a first load (every record new) stays fast. An existing document
 * is replaced only when it differs. Written through the driver so the stored document is exactly
 * the one built here (mongoose would cast and minimise it). With `versionFilter` the replace is a
 * compare-and-swap on `rev` (for documents other writes change too), otherwise the last import wins.
 */
export async function putById<T extends { _id: string }>(
  collection: Collection<Document>,
  doc: T,
  versionFilter?: VersionFilter,
): Promise<{ outcome: PutOutcome; previous: T | null }> {
  const clean = compact(doc);
  try {
    await collection.insertOne((versionFilter ? { ...clean, rev: 0 } : clean) as Document);
    return { outcome: 'inserted', previous: null };
  } catch (err) {
    if (!isDuplicateKey(err)) throw err;
  }
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const previous = (await collection.findOne({ _id: doc._id } as Document)) as (T & { rev?: number }) | null;
    if (!versionFilter) {
      if (previous && isDeepStrictEqual(previous, clean)) return { outcome: 'unchanged', previous };
      await collection.replaceOne({ _id: doc._id } as Document, clean as Document, { upsert: true });
      return { outcome: 'replaced', previous };
    }
    if (!previous) throw new Error(`document ${doc._id} vanished while being replaced`);
    const { rev: _rev, ...stored } = previous;
    if (isDeepStrictEqual(stored, clean)) return { outcome: 'unchanged', previous };
    const result = await collection.replaceOne(await versionFilter(doc._id, previous.rev), { ...clean, rev: nextRev(previous) } as Document);
    if (result.matchedCount === 1) return { outcome: 'replaced', previous };
  }
  throw new Error(`document ${doc._id} kept changing while being replaced`);
}

/**
 * Creates a document, or when one with that `_id` exists, changes it: `create()` builds the new
 * document, `change(current)` the fields to set (skipped when they already hold these values).
 * Insert first, for the reason given at putById. The change is a compare-and-swap on `rev`
 * (`versionFilter`), computed again from the document as it then is when another instance changed
 * it meanwhile. Callers also hold the document's lock (the guard on the local engine).
 */
export async function createOrChange<T extends { _id: string; rev?: number }>(
  collection: Collection,
  create: () => T,
  change: (current: T) => Partial<T>,
  versionFilter: VersionFilter,
): Promise<{ created: boolean; previous: T | null; stored: T }> {
  const doc = compact({ ...create(), rev: 0 });
  try {
    await collection.insertOne(doc as Document);
    return { created: true, previous: null, stored: doc };
  } catch (err) {
    if (!isDuplicateKey(err)) throw err;
  }
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const current = (await collection.findOne({ _id: doc._id } as Document)) as T | null;
    if (!current) throw new Error(`document ${doc._id} vanished while being changed`);
    const stored = await setFields(collection, current, change(current), versionFilter);
    if (stored !== 'conflict') return { created: false, previous: current, stored };
  }
  throw new Error(`document ${doc._id} kept changing`);
}

/**
 * `$set` of some fields of the document as it was read (`current`), skipped when they already hold
 * these values. Returns the document as now stored (`current` with those fields and the next `rev`,
 * as `$set` leaves it), or `conflict` when another instance changed it since it was read
 * (compare-and-swap on `rev`, see VersionFilter): the caller reads it again and recomputes.
 */
export async function setFields<T extends { _id: string; rev?: number }>(
  collection: Collection<Document>,
  current: T,
  fields: Partial<T>,
  versionFilter: VersionFilter,
): Promise<T | 'conflict'> {
  const clean = compact(fields) as Record<string, unknown>;
  const changed = Object.entries(clean).filter(([k, v]) => k !== 'rev' && !isDeepStrictEqual((current as Record<string, unknown>)[k], v));
  if (changed.length === 0) return current;
  const set = { ...Object.fromEntries(changed), rev: nextRev(current) };
  const result = await collection.updateOne(await versionFilter(current._id, current.rev), { $set: set });
  return result.matchedCount === 1 ? { ...current, ...set } : 'conflict';
}

/**
 * Reads the document, computes fields from it and sets them, again until no other write came in
 * between. Returns the document as now stored, or null when there is none.
 */
export async function changeFields<T extends { _id: string; rev?: number }>(
  collection: Collection<Document>,
  read: () => Promise<T | null>,
  compute: (current: T) => Promise<Partial<T>> | Partial<T>,
  versionFilter: VersionFilter,
): Promise<T | null> {
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const current = await read();
    if (!current) return null;
    const stored = await setFields(collection, current, await compute(current), versionFilter);
    if (stored !== 'conflict') return stored;
  }
  throw new Error('a document kept changing');
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
