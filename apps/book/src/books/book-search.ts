import { relevance, WeightedText } from '@plaza/search';
import type { SearchCard } from './book-search-index';
import { mergeTags, raterCount, tagSearchKey } from './book-view';

/** How much a book's popularity adds to its score: enough to order equally relevant books, never to beat a better match. */
const POPULARITY_WEIGHT = 0.4;

function weightedFields(row: SearchCard): WeightedText[] {
  return [
    { text: row.title, weight: 3 },
    { text: row.origin_title, weight: 2 },
    { text: row.alt_title, weight: 2 },
    { text: row.subtitle, weight: 1 },
    ...(row.author ?? []).map((text) => ({ text, weight: 2 })),
    ...(row.translator ?? []).map((text) => ({ text, weight: 1 })),
    { text: row.publisher, weight: 0.5 },
    { text: row.series?.title, weight: 1 },
  ];
}

/** The book's count of a tag, compared as `tag=` compares (case and width ignored). */
export function tagCount(row: SearchCard, tag: string): number {
  const key = tagSearchKey(tag);
  return mergeTags(row.base_tags, row.user_tags, Number.MAX_SAFE_INTEGER)
    .filter((t) => tagSearchKey(t.name) === key)
    .reduce((sum, t) => sum + t.count, 0);
}

interface Scored<T> {
  row: T;
  score: number;
  tagged: number;
  raters: number;
}

/**
 * Orders the matches of a search: by how well the query matches the title, authors and other
 * fields (`relevance`), plus a little for popularity (raters); for a tag search, by how often the
 * book was given the tag. Ties go to the more rated book, then the lower id, so pages are stable.
 * Books that only ever had the tag (its count fell to 0) are dropped here.
 */
export function rankBooks<T extends SearchCard>(rows: T[], q: string | undefined, tag: string | undefined): T[] {
  const scored: Scored<T>[] = [];
  for (const row of rows) {
    const tagged = tag !== undefined ? tagCount(row, tag) : 0;
    if (tag !== undefined && tagged === 0) continue;
    const raters = raterCount(row);
    const score = q ? relevance(q, weightedFields(row)) + POPULARITY_WEIGHT * Math.log10(1 + raters) : 0;
    scored.push({ row, score, tagged, raters });
  }
  scored.sort((a, b) => b.score - a.score || b.tagged - a.tagged || b.raters - a.raters || compareIds(a.row._id, b.row._id));
  return scored.map((s) => s.row);
}

/** Numeric order of digit-string ids. */
export function compareIds(a: string, b: string): number {
  return a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);
}
