import { partitionPoint, RankedPostings, TermIndex } from '@plaza/search';
import { RankedSearchFields, SearchPage, SearchQuery, SearchWindow } from '../search/ranked-search';
import { LocalReadModel } from './local-read-model';

/** A searchable record as the services store it. */
export type SearchableDocument = { _id: string } & RankedSearchFields;

/** What the index keeps of each record: enough to match and order, and what `keep` asks to keep. */
interface Entry<Kept> {
  rank: string;
  kept?: Kept;
  titleKeys: string[];
}

/**
 * Search on the local engine, in memory, in exactly the order of the MongoDB branch
 * (rankedSearchPage, ranked-search.ts): a title equal to the query, then every term in the
 * titles, then every term anywhere, each by `search_rank`; a tag alone by the tag's own rank when
 * the service gives one (`tagRanksOf`), else by `search_rank`. FerretDB v1 answers
 * `search_terms: {$all: ...}` by decoding every document of the collection (0.3 ms per book:
 * 0.9 s for the 3 000-book demo catalogue, measured); this answers in microseconds to
 * milliseconds. Loading and upkeep: see LocalReadModel.
 */
export class LocalSearchIndex<Doc extends SearchableDocument, Kept = never> extends LocalReadModel<Doc> {
  private readonly entries = new Map<string, Entry<Kept>>();
  private readonly terms = new TermIndex();
  private readonly titleTerms = new TermIndex();
  /** Each tag's records, in the order of a search by that tag alone. */
  private readonly tagOrder = new RankedPostings();
  private readonly exact = new Map<string, Set<string>>();

  /**
   * `fieldsOf` gives the search fields of a record as they are stored (records written before
   * the fields existed get them computed); `tagRanksOf`, the tag ranks of the service's tag order;
   * `keep`, what a page of results needs of each record (its view), so that a page is answered
   * without reading its records again (`kept`).
   */
  constructor(
    private readonly fieldsOf: (doc: Doc) => RankedSearchFields = (doc) => doc,
    private readonly tagRanksOf?: (doc: Doc) => Map<string, string>,
    private readonly keep?: (doc: Doc) => Kept,
  ) {
    super();
  }

  get size(): number {
    return this.entries.size;
  }

  /** What `keep` kept of the record `id`, or undefined (no such record, or nothing kept). */
  kept(id: string): Kept | undefined {
    return this.entries.get(id)?.kept;
  }

  /** The page of `query` within `window`, and the number of matches up to the window's limit. */
  page(query: SearchQuery, window: SearchWindow): SearchPage {
    const end = Math.min(window.start + window.count, window.limit);
    const { total, first } = this.ordered(query, end);
    return { total: Math.min(total, window.limit), ids: window.start < end ? first.slice(window.start, end) : [] };
  }

  /**
   * How many records match `query`, and the first `needed` of them in rank order: only those are
   * sorted, so a page of a common word costs a pass over its matches, not a sort of them all; a
   * tag alone is a slice of the tag's order, kept sorted as records change (RankedPostings).
   */
  private ordered(query: SearchQuery, needed: number): { total: number; first: string[] } {
    if (query.terms.length === 0) {
      if (query.tagKey === undefined) return { total: 0, first: [] };
      return { total: this.tagOrder.count(query.tagKey), first: this.tagOrder.first(query.tagKey, needed) };
    }
    let ids = this.terms.lookup(query.terms);
    const tagKey = query.tagKey;
    if (tagKey !== undefined) ids = ids.filter((id) => this.tagOrder.holds(tagKey, id));
    const inTitles = new Set(this.titleTerms.lookup(query.terms));
    const exact = this.exact.get(query.exact) ?? new Set<string>();
    const ranked = ids.map((id) => ({ id, tier: exact.has(id) ? 0 : inTitles.has(id) ? 1 : 2, rank: this.entries.get(id)?.rank ?? '' }));
    return { total: ids.length, first: smallest(ranked, needed).map((m) => m.id) };
  }

  /**
   * Replaces what is held of the record. Each term index leaves a record's terms in place when
   * they did not change (`TermIndex.put`), as for most writes (a book's rating moves its rank and
   * tags, never its words), so the record is not taken out of them first.
   */
  protected store(doc: Doc): void {
    const fields = this.fieldsOf(doc);
    const titleKeys = [...new Set(fields.title_keys)];
    const before = this.entries.get(doc._id);
    if (before) this.unlinkTitleKeys(doc._id, before.titleKeys);
    this.entries.set(doc._id, { rank: fields.search_rank, titleKeys, kept: this.keep?.(doc) });
    this.terms.put(doc._id, fields.search_terms);
    this.titleTerms.put(doc._id, fields.title_terms);
    const tagRanks = this.tagRanksOf?.(doc);
    this.tagOrder.put(doc._id, new Map(fields.tag_keys.map((key) => [key, tagRanks?.get(key) ?? fields.search_rank])));
    for (const key of titleKeys) {
      let ids = this.exact.get(key);
      if (!ids) this.exact.set(key, (ids = new Set()));
      ids.add(doc._id);
    }
  }

  protected drop(id: string): void {
    const entry = this.entries.get(id);
    if (!entry) return;
    this.unlinkTitleKeys(id, entry.titleKeys);
    this.entries.delete(id);
    this.terms.remove(id);
    this.titleTerms.remove(id);
    this.tagOrder.remove(id);
  }

  private unlinkTitleKeys(id: string, keys: string[]): void {
    for (const key of keys) {
      const ids = this.exact.get(key);
      ids?.delete(id);
      if (ids?.size === 0) this.exact.delete(key);
    }
  }
}

interface Ranked {
  id: string;
  tier: number;
  rank: string;
}

const byTierAndRank = (a: Ranked, b: Ranked) => a.tier - b.tier || (a.rank < b.rank ? -1 : a.rank > b.rank ? 1 : 0);

/** The `k` first of `items` by tier then rank, in order (a bounded insertion: one comparison for most items). */
export function smallest(items: Ranked[], k: number): Ranked[] {
  if (k <= 0) return [];
  if (items.length <= k * 4) return items.sort(byTierAndRank).slice(0, k);
  const top: Ranked[] = [];
  for (const item of items) {
    if (top.length === k && byTierAndRank(item, top[k - 1]) >= 0) continue;
    top.splice(partitionPoint(top.length, (at) => byTierAndRank(top[at], item) <= 0), 0, item);
    if (top.length > k) top.pop();
  }
  return top;
}
