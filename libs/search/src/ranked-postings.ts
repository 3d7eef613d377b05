import { partitionPoint } from './partition-point';

/** The ids filed under one key: each id's rank, and once read, the ids in rank order. */
interface Postings {
  rankOf: Map<string, string>;
  /** Ranks and ids in rank order; absent until the key is first read after a bulk of puts. */
  order?: { ranks: string[]; ids: string[] };
}

/**
 * Per key, the ids filed under it in the order of their rank under that key (ranks are plain
 * strings compared as such; two ids under one key never share one): what a compound index on
 * (key, rank) gives MongoDB. `first(key, n)` is a slice, however many ids the key holds.
 *
 * A key's order is sorted when it is first read and kept sorted from then on, each change moving
 * one id by a binary search; ids put before the first read (the index loading) are only sorted
 * once.
 */
export class RankedPostings {
  private readonly postings = new Map<string, Postings>();
  private readonly keysOf = new Map<string, string[]>();

  /** Files `id` under the keys of `ranks`, each at its rank, and takes it out of the keys it no longer has. */
  put(id: string, ranks: ReadonlyMap<string, string>): void {
    for (const key of this.keysOf.get(id) ?? []) if (!ranks.has(key)) this.unfile(key, id);
    for (const [key, rank] of ranks) this.file(key, id, rank);
    if (ranks.size === 0) this.keysOf.delete(id);
    else this.keysOf.set(id, [...ranks.keys()]);
  }

  remove(id: string): void {
    for (const key of this.keysOf.get(id) ?? []) this.unfile(key, id);
    this.keysOf.delete(id);
  }

  /** How many ids are filed under `key`. */
  count(key: string): number {
    return this.postings.get(key)?.rankOf.size ?? 0;
  }

  /** Whether `id` is filed under `key`. */
  holds(key: string, id: string): boolean {
    return this.postings.get(key)?.rankOf.has(id) ?? false;
  }

  /** The first `n` ids filed under `key`, in rank order. */
  first(key: string, n: number): string[] {
    const postings = this.postings.get(key);
    if (!postings || n <= 0) return [];
    return orderOf(postings).ids.slice(0, n);
  }

  private file(key: string, id: string, rank: string): void {
    let postings = this.postings.get(key);
    if (!postings) this.postings.set(key, (postings = { rankOf: new Map() }));
    const previous = postings.rankOf.get(id);
    if (previous === rank) return;
    postings.rankOf.set(id, rank);
    const order = postings.order;
    if (!order) return;
    if (previous !== undefined) removeAt(order, id, previous);
    const at = lowerBound(order.ranks, rank);
    order.ranks.splice(at, 0, rank);
    order.ids.splice(at, 0, id);
  }

  private unfile(key: string, id: string): void {
    const postings = this.postings.get(key);
    const previous = postings?.rankOf.get(id);
    if (!postings || previous === undefined) return;
    postings.rankOf.delete(id);
    if (postings.rankOf.size === 0) this.postings.delete(key);
    else if (postings.order) removeAt(postings.order, id, previous);
  }
}

function orderOf(postings: Postings): { ranks: string[]; ids: string[] } {
  if (!postings.order) {
    const sorted = [...postings.rankOf].sort(([, a], [, b]) => (a < b ? -1 : a > b ? 1 : 0));
    postings.order = { ranks: sorted.map(([, rank]) => rank), ids: sorted.map(([id]) => id) };
  }
  return postings.order;
}

/** The first place whose rank is not below `rank`. */
function lowerBound(ranks: string[], rank: string): number {
  return partitionPoint(ranks.length, (at) => ranks[at] < rank);
}

function removeAt(order: { ranks: string[]; ids: string[] }, id: string, rank: string): void {
  // ranks are unique under a key; the walk over equal ranks only guards against a caller that breaks it
  for (let at = lowerBound(order.ranks, rank); at < order.ranks.length && order.ranks[at] === rank; at++) {
    if (order.ids[at] !== id) continue;
    order.ranks.splice(at, 1);
    order.ids.splice(at, 1);
    return;
  }
}
