import { LocalSearchIndex } from '@plaza/service-kit';
import type { BookDocument } from './book.schema';

/** What ranking a search reads of a book (book-search.ts); the page itself is read whole by `_id`. */
export const SEARCH_CARD_FIELDS = [
  '_id', 'title', 'origin_title', 'alt_title', 'subtitle', 'author', 'translator', 'publisher', 'series',
  'base_tags', 'user_tags', 'base_rating', 'user_rating',
] as const;

export type SearchCard = Pick<BookDocument, (typeof SEARCH_CARD_FIELDS)[number]>;

export function searchCardOf(doc: BookDocument): SearchCard {
  const card: Partial<Record<keyof BookDocument, unknown>> = {};
  for (const field of SEARCH_CARD_FIELDS) card[field] = doc[field];
  return card as SearchCard;
}

/** Book search on the local engine (FerretDB): see LocalSearchIndex. */
export const createBookSearchIndex = () => new LocalSearchIndex<BookDocument, SearchCard>(searchCardOf);
