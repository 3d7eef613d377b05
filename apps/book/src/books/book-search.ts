import { RankedSearchFields } from '@plaza/service-kit';
import { exactKey, indexTerms, searchRank, tagRank } from '@plaza/search';
import type { BookDocument } from './book.schema';
import { mergeTags, raterCount, tagSearchKey } from './book-view';

/**
 * What a book's place in search results depends on, stored with it on every write (import,
 * ratings, tags), so that MongoDB answers a search page from indexes (RankedSearchFields in
 * @plaza/service-kit) and the local engine's in-memory index orders the same way:
 * - `q`: a title (title, original or alternative title) equal to the query first, then books with
 *   every term in their titles (subtitle included), then every term anywhere (authors,
 *   translators, publisher, ISBNs); within each, more raters first, then the lower id;
 * - `tag` alone: the books given the tag most often first (catalogue and users' counts), then the
 *   lower id (bookTagRanks; kept in `book_tag_ranks` on MongoDB);
 * - `q` and `tag`: the `q` order among the books with the tag.
 */
export function bookSearchFields(doc: BookDocument): RankedSearchFields {
  return {
    search_terms: bibliographicTerms(doc),
    title_terms: indexTerms(doc.title, doc.origin_title, doc.alt_title, doc.subtitle),
    title_keys: [...new Set([doc.title, doc.origin_title, doc.alt_title].map(exactKey).filter(Boolean))],
    tag_keys: [...bookTagCounts(doc).keys()],
    search_rank: searchRank(raterCount(doc), doc._id),
  };
}

/** The book with its search fields recomputed (the repository calls it before every write). */
export function withSearchFields(doc: BookDocument): BookDocument {
  return { ...doc, ...bookSearchFields(doc) };
}

/** What `q` matches anywhere in a book: the terms of its titles, authors, translators, publisher and ISBNs. */
function bibliographicTerms(doc: Pick<BookDocument, 'title' | 'origin_title' | 'alt_title' | 'subtitle' | 'author' | 'translator' | 'publisher' | 'isbn10' | 'isbn13'>): string[] {
  return indexTerms(doc.title, doc.origin_title, doc.alt_title, doc.subtitle, ...(doc.author ?? []), ...(doc.translator ?? []), doc.publisher, doc.isbn10, doc.isbn13);
}

/** Search fields as the local engine stores them: empty, since it searches in memory (docs/ENGINES.md, "Two branches"). */
const UNSTORED_SEARCH_FIELDS: RankedSearchFields = { search_terms: [], title_terms: [], title_keys: [], tag_keys: [], search_rank: '' };

/**
 * The book as the local engine stores it: without its search fields, which it computes from the
 * rest when it loads the book into its search index. FerretDB decodes and encodes every value of a
 * document on every write, and these are half of a book's values: a rating's write of the book
 * costs FerretDB and the service about a third less without them (docs/PERFORMANCE.md, "Writes").
 */
export function withoutSearchFields(doc: BookDocument): BookDocument {
  return { ...doc, ...UNSTORED_SEARCH_FIELDS };
}

/** Each tag's search key (case and width ignored) → the book's count of it, only counts above 0. */
export function bookTagCounts(doc: Pick<BookDocument, 'base_tags' | 'user_tags'>): Map<string, number> {
  const counts = new Map<string, number>();
  for (const tag of mergeTags(doc.base_tags, doc.user_tags, Number.MAX_SAFE_INTEGER)) {
    const key = tagSearchKey(tag.name);
    if (key) counts.set(key, (counts.get(key) ?? 0) + tag.count);
  }
  return counts;
}

/** The book's place among the books of each of its tags: the tag's count, then the id. */
export function bookTagRanks(doc: BookDocument): Map<string, string> {
  const idRank = searchRank(0, doc._id);
  return new Map([...bookTagCounts(doc)].map(([key, count]) => [key, tagRank(count, idRank)]));
}

/** Numeric order of digit-string ids. */
export function compareIds(a: string, b: string): number {
  return a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);
}
