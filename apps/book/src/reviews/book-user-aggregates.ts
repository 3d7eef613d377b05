import { Drift } from '@plaza/contracts';
import { CacheInvalidator } from '@plaza/platform';
import { Model } from 'mongoose';
import { BookDocument } from '../books/book.schema';
import { bookCacheTags, tagFromKey } from '../books/book-view';
import { AggregateDelta, BooksRepository } from '../books/books.repository';
import { CollectionDocument } from '../collections/collection.schema';
import { aggregateContributions, noUserAggregates, UserAggregates } from '../common/contributions';
import { ReviewDocument } from './review.schema';

type Entry = Pick<CollectionDocument, 'book_id' | 'rating' | 'tags'>;
type Rated = Pick<ReviewDocument, 'book_id' | 'rating'>;

/** How long a drift must stay the same, with the book unwritten, before it is corrected (see `correct`; a user's tag counts wait as long). */
export const STABLE_MS = 1500;

/**
 * A book's users' aggregates recomputed from their sources: every collection entry and review of
 * the book (a rating r counts 2r out of 10, an entry's tags once each: common/contributions.ts).
 *
 * The book's aggregates are written by differences (BooksRepository.applyUserAggregates, from
 * collection and review writes), so a write that died between its document and its difference
 * leaves them off for good. Every such write runs under an entry of BookAggregateJournal, which
 * calls `correct` for a book only while no write of it is in flight in this process and holds new
 * ones until it is done. Correcting is right only when no such write of the book is half done:
 * `correct` also measures the drift twice, STABLE_MS apart, and applies the difference only when
 * both agree and the book was not written in between, which covers another instance's writes
 * (MongoDB replica sets) unless one's two steps straddle that whole interval.
 */
export class BookUserAggregates {
  constructor(
    private readonly books: BooksRepository,
    private readonly collections: Model<CollectionDocument>,
    private readonly reviews: Model<ReviewDocument>,
    private readonly cache: CacheInvalidator,
  ) {}

  /** The aggregates of one book from its entries and reviews (the `book_id` indexes on MongoDB). */
  async fromSources(bookId: string): Promise<UserAggregates> {
    const [entries, reviews] = await Promise.all([
      this.collections.find({ book_id: bookId }, { book_id: 1, rating: 1, tags: 1 }).lean<Entry[]>().exec(),
      this.reviews.find({ book_id: bookId }, { book_id: 1, rating: 1 }).lean<Rated[]>().exec(),
    ]);
    return aggregateContributions([...entries, ...reviews]).get(bookId) ?? noUserAggregates();
  }

  /** Every book's aggregates from the sources, one pass over each collection (reconciliation). */
  async allFromSources(): Promise<Map<string, UserAggregates>> {
    const [entries, reviews] = await Promise.all([
      this.collections.find({}, { book_id: 1, rating: 1, tags: 1 }).lean<Entry[]>().exec(),
      this.reviews.find({}, { book_id: 1, rating: 1 }).lean<Rated[]>().exec(),
    ]);
    return aggregateContributions([...entries, ...reviews]);
  }

  /** Every book's aggregates as they stand, and version (BooksRepository.allAggregates). */
  allStored(): AsyncIterable<Pick<BookDocument, '_id' | 'user_rating' | 'user_tags' | 'rev'>> {
    return this.books.allAggregates();
  }

  /**
   * Brings the book's aggregates to what its sources say, if they differ and the difference holds
   * still (see the class). Returns the drift found, or null when there was none (or no book);
   * throws when the book kept changing (the caller retries later).
   */
  async correct(bookId: string): Promise<Drift | null> {
    const first = await this.measure(bookId);
    if (!first) return null;
    await new Promise((resolve) => setTimeout(resolve, STABLE_MS));
    const second = await this.measure(bookId);
    if (!second) return null;
    if (second.rev !== first.rev || second.key !== first.key) throw new Error(`book ${bookId} changed while its aggregates were checked`);
    const book = await this.books.applyUserAggregates(bookId, second.delta);
    if (book) this.cache.tags(...bookCacheTags(book));
    return { kind: 'book.user_aggregates', id: bookId, stored: second.stored, source: second.source };
  }

  /** The book compared with its sources now, on its own (reconcile's confirmation): its drift, or null. */
  async drift(bookId: string): Promise<Drift | null> {
    const m = await this.measure(bookId);
    return m ? { kind: 'book.user_aggregates', id: bookId, stored: m.stored, source: m.source } : null;
  }

  private async measure(bookId: string) {
    const book = await this.books.aggregatesOf(bookId);
    if (!book) return null;
    const source = await this.fromSources(bookId);
    const stored = storedOf(book);
    const delta = difference(stored, source);
    if (!delta) return null;
    return { rev: book.rev ?? 0, key: JSON.stringify([delta.raters, delta.ratingSum, [...delta.tags].sort()]), delta, stored, source };
  }
}

export function storedOf(book: Pick<BookDocument, 'user_rating' | 'user_tags'>): UserAggregates {
  const tags = Object.fromEntries(Object.entries(book.user_tags ?? {}).filter(([, n]) => n > 0));
  return { num: book.user_rating?.num ?? 0, sum: book.user_rating?.sum ?? 0, tags };
}

/** What takes `stored` to `source`, or null when they are equal. */
export function difference(stored: UserAggregates, source: UserAggregates): AggregateDelta | null {
  const tags = new Map<string, number>();
  for (const key of new Set([...Object.keys(stored.tags), ...Object.keys(source.tags)])) {
    const change = (source.tags[key] ?? 0) - (stored.tags[key] ?? 0);
    if (change !== 0) tags.set(tagFromKey(key), change);
  }
  const raters = source.num - stored.num;
  const ratingSum = source.sum - stored.sum;
  return raters === 0 && ratingSum === 0 && tags.size === 0 ? null : { raters, ratingSum, tags };
}
