import { exactKey, queryTerms } from '@plaza/search';
import type { Model } from 'mongoose';

/**
 * Ranked search answered from indexes, a page at a time, on MongoDB (and the same order from
 * memory on the local engine: LocalSearchIndex).
 *
 * A record stores, at import and on every change, what its place in any result depends on:
 * - `search_terms`: the terms of every searchable text (libs/search), matched with `$all`;
 * - `title_terms`: the terms of its titles alone;
 * - `title_keys`: its titles as `exactKey` gives them;
 * - `tag_keys`: its normalised tags (`tag=` matches one exactly);
 * - `search_rank`: popularity then id, as one string (`searchRank`).
 * The matches of `q` come in three tiers, each in `search_rank` order: a title equal to the query,
 * then every term in the titles, then every term anywhere. Each tier is one indexed query
 * (`{title_keys: 1, search_rank: 1}`, `{title_terms: 1, search_rank: 1}`,
 * `{search_terms: 1, search_rank: 1}`) with `skip`/`limit` applied by the database, so a request
 * reads its page, never the matches.
 *
 * Counting is bounded too: a search reaches at most SEARCH_RESULT_LIMIT results, so `total` is
 * the number of matches up to that bound (a count that stops there), and pages past it are empty.
 */
export const SEARCH_RESULT_LIMIT = 1000;

export interface RankedSearchFields {
  search_terms: string[];
  title_terms: string[];
  title_keys: string[];
  tag_keys: string[];
  search_rank: string;
}

/** One search: `terms` (queryTerms of q; empty for a search by tag alone), `exact` (exactKey of q), an optional tag key. */
export interface SearchQuery {
  terms: string[];
  exact: string;
  tagKey?: string;
}

export function searchQuery(q: string | undefined, tagKey: string | undefined): SearchQuery {
  return { terms: q === undefined ? [] : queryTerms(q), exact: exactKey(q), ...(tagKey !== undefined ? { tagKey } : {}) };
}

/** Which results a request wants: `start`, `count`, and how many are reachable at all (`limit`). */
export interface SearchWindow {
  start: number;
  count: number;
  limit: number;
}

/** A page of ids in rank order, and the number of matches up to the window's limit. */
export interface SearchPage {
  total: number;
  ids: string[];
}

/** One part of a result, in order: a filter on a model, sorted by an index, the record's id in `idField`. */
export interface OrderedSegment {
  /** Any model (`as unknown as Model<never>`): the filters are built here, not checked against a schema type. */
  model: Model<never>;
  filter: Record<string, unknown>;
  sort: Record<string, 1 | -1>;
  /** Where the record's id is (default `_id`). */
  idField?: string;
}

/**
 * The page of a result made of segments (tiers) in order: each segment is counted only as far
 * as the page's end needs, and only the page's ids are read (`skip`/`limit` in the database).
 */
export async function pageOfSegments(segments: OrderedSegment[], total: () => Promise<number>, window: SearchWindow): Promise<SearchPage> {
  const end = Math.min(window.start + window.count, window.limit);
  const ids: string[] = [];
  const counting = total();
  let offset = 0;
  for (let i = 0; i < segments.length && offset < end; i++) {
    const segment = segments[i];
    const last = i === segments.length - 1;
    const wanted = end - offset;
    const size = last ? wanted : await segment.model.countDocuments(segment.filter as never).limit(wanted).exec();
    const from = Math.max(0, window.start - offset);
    if (from < size) {
      const idField = segment.idField ?? '_id';
      const docs = await segment.model
        .find(segment.filter as never, { [idField]: 1 })
        .sort(segment.sort)
        .skip(from)
        .limit(size - from)
        .lean<Array<Record<string, string>>>()
        .exec();
      ids.push(...docs.map((d) => d[idField]));
    }
    offset += size;
  }
  return { total: Math.min(await counting, window.limit), ids };
}

/**
 * A `q` search (with or without a tag) on a model holding RankedSearchFields: the three tiers.
 * With no terms there is no match (a query of punctuation only).
 */
export async function rankedSearchPage(model: Model<never>, query: SearchQuery, window: SearchWindow): Promise<SearchPage> {
  if (query.terms.length === 0) return { total: 0, ids: [] };
  const tag = query.tagKey !== undefined ? { tag_keys: query.tagKey } : {};
  const all = { $all: query.terms };
  const segments: OrderedSegment[] = [
    { model, filter: { title_keys: query.exact, search_terms: all, ...tag }, sort: { search_rank: 1 } },
    { model, filter: { title_terms: all, title_keys: { $ne: query.exact }, ...tag }, sort: { search_rank: 1 } },
    { model, filter: { search_terms: all, title_terms: { $not: all }, ...tag }, sort: { search_rank: 1 } },
  ];
  return pageOfSegments(segments, () => model.countDocuments({ search_terms: all, ...tag } as never).limit(window.limit).exec(), window);
}

/**
 * The indexes rankedSearchPage's queries use; a schema holding RankedSearchFields declares them.
 * `tagOrder`: a search by tag alone is ordered by `search_rank` (tagSearchPage) — a service with
 * an order of its own for tags (books: by the tag's count) keeps that elsewhere.
 */
export function declareRankedSearchIndexes(schema: { index(fields: Record<string, 1 | -1>): unknown }, options: { tagOrder: boolean }): void {
  schema.index({ search_terms: 1, search_rank: 1 });
  schema.index({ title_terms: 1, search_rank: 1 });
  schema.index({ title_keys: 1, search_rank: 1 });
  if (options.tagOrder) schema.index({ tag_keys: 1, search_rank: 1 });
}

/** A search by tag alone, in `search_rank` order. */
export function tagSearchPage(model: Model<never>, tagKey: string, window: SearchWindow): Promise<SearchPage> {
  const filter = { tag_keys: tagKey };
  return pageOfSegments([{ model, filter, sort: { search_rank: 1 } }], () => model.countDocuments(filter as never).limit(window.limit).exec(), window);
}
