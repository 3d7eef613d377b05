import { Query } from 'mongoose';
import type { Schema } from 'mongoose';
import { DatabaseEngine } from './database-engine';

/**
 * Proof, without a MongoDB server, that every list and search query has an index on MongoDB.
 * The local engine (FerretDB v1 on SQLite) ignores secondary indexes, so nothing at run time would
 * notice a query that MongoDB has to answer with a collection scan or an in-memory sort.
 *
 * `captureQueries` runs repository code with every mongoose query answered empty and records what
 * it asked; `indexPlanFor` applies MongoDB's planner rules (equality, sort, range) to the
 * schema's declared indexes. A service's spec asserts each captured query gets a plan.
 */
export interface CapturedQuery {
  model: string;
  op: string;
  filter: Record<string, unknown>;
  sort: Record<string, 1 | -1>;
  /** The query's `limit` (find) or count bound (countDocuments); undefined when it has none. */
  limit?: number;
  schema: Schema;
}

/** An engine taking the MongoDB branch, for repositories whose MongoDB queries a spec captures. */
export const MONGODB_ENGINE = DatabaseEngine.fixed('mongodb');

const EMPTY_ANSWER: Record<string, unknown> = { find: [], countDocuments: 0, estimatedDocumentCount: 0, findOne: null, distinct: [] };

/** `answers`: what an operation answers instead of nothing (counts that make a search read every tier, say). */
export async function captureQueries(run: () => Promise<unknown>, answers: Record<string, unknown> = {}): Promise<CapturedQuery[]> {
  const captured: CapturedQuery[] = [];
  const answer = { ...EMPTY_ANSWER, ...answers };
  const original = Query.prototype.exec;
  Query.prototype.exec = async function capture(this: Query<unknown, unknown>) {
    const sort = (this.getOptions().sort ?? {}) as Record<string, 1 | -1>;
    const op = (this as unknown as { op?: string }).op ?? 'unknown';
    const limit = this.getOptions().limit as number | undefined;
    captured.push({ model: this.model.modelName, op, filter: this.getFilter() as Record<string, unknown>, sort, limit, schema: this.model.schema });
    return answer[op] ?? null;
  } as typeof original;
  try {
    await run();
  } finally {
    Query.prototype.exec = original;
  }
  return captured;
}

type Kind = 'equality' | 'range';

/** How MongoDB can bound an index scan on each filtered field. `$in` and `$all` give point bounds. */
function fieldKinds(filter: Record<string, unknown>): Map<string, Kind> {
  const kinds = new Map<string, Kind>();
  for (const [field, value] of Object.entries(filter)) {
    if (field.startsWith('$')) continue;
    const isOperatorObject = value !== null && typeof value === 'object' && !(value instanceof Date) && !Array.isArray(value) && Object.keys(value).some((k) => k.startsWith('$'));
    if (!isOperatorObject) kinds.set(field, 'equality');
    else if ('$in' in (value as object) || '$all' in (value as object) || '$eq' in (value as object)) kinds.set(field, 'equality');
    else if (['$gt', '$gte', '$lt', '$lte'].some((op) => op in (value as object))) kinds.set(field, 'range');
  }
  return kinds;
}

export interface IndexPlan {
  index: Record<string, number>;
  /** True when the index order gives the requested sort, so no in-memory sort stage is needed. */
  sortFromIndex: boolean;
}

/**
 * The declared index MongoDB would scan for `filter` sorted by `sort`, or undefined when it would
 * scan the collection or sort in memory. `_id` equality is always indexed.
 */
export function indexPlanFor(schema: Schema, filter: Record<string, unknown>, sort: Record<string, 1 | -1> = {}): IndexPlan | undefined {
  const kinds = fieldKinds(filter);
  if (kinds.get('_id') === 'equality') return { index: { _id: 1 }, sortFromIndex: true };
  const wantedSort = Object.entries(sort).filter(([field]) => kinds.get(field) !== 'equality');
  const indexes = [...schema.indexes().map(([keys]) => keys as Record<string, number>), { _id: 1 }];
  for (const index of indexes) {
    const keys = Object.entries(index);
    // the scan must be bounded by the index's first field, or be an ordered walk for the sort
    const bounded = kinds.has(keys[0][0]);
    let i = 0;
    while (i < keys.length && kinds.get(keys[i][0]) === 'equality') i++;
    const rest = keys.slice(i, i + wantedSort.length);
    const forward = wantedSort.every(([field, dir], k) => rest[k]?.[0] === field && rest[k][1] === dir);
    const backward = wantedSort.every(([field, dir], k) => rest[k]?.[0] === field && rest[k][1] === -dir);
    const sortFromIndex = wantedSort.length === 0 || forward || backward;
    if ((bounded || (wantedSort.length > 0 && sortFromIndex && Object.keys(filter).length === 0)) && sortFromIndex) return { index, sortFromIndex };
  }
  return undefined;
}

/** The captured queries MongoDB could not answer from an index, described for a test failure. */
export function unindexedQueries(queries: CapturedQuery[]): string[] {
  return queries
    .filter((q) => !indexPlanFor(q.schema, q.filter, q.op === 'countDocuments' ? {} : q.sort))
    .map((q) => `${q.model}.${q.op}(${JSON.stringify(q.filter)}) sort ${JSON.stringify(q.sort)}`);
}

const byId = (filter: Record<string, unknown>) => {
  const id = filter._id;
  return id !== undefined && (typeof id !== 'object' || id === null || '$eq' in (id as object));
};

/**
 * The captured reads that could bring more than a page plus a constant into the process: a `find`
 * with no limit, other than a read by `_id`. (Counts bring one number; unindexedQueries checks
 * that they walk an index.) `allowed` names the models whose reads are bounded by construction.
 */
export function unboundedQueries(queries: CapturedQuery[], allowed: string[] = []): string[] {
  return queries
    .filter((q) => q.op === 'find' && q.limit === undefined && !byId(q.filter) && !allowed.includes(q.model))
    .map((q) => `${q.model}.${q.op}(${JSON.stringify(q.filter)}) without a limit`);
}
