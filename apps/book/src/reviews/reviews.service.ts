import { Inject, Injectable } from '@nestjs/common';
import { InjectConnection } from '@nestjs/mongoose';
import { ApiError, Caller, Drift, envelope, PageRequest, ReconcileResponse, Review, ReviewCreateInput, ReviewList, ReviewUpdateInput, SimpleUser } from '@plaza/contracts';
import { APP_CONFIG, Clock, CLOCK, formatTimestamp, KeyedMutex, LOGGER, Logger, UsersDirectory, Metrics } from '@plaza/platform';
import { Sequences } from '@plaza/service-kit';
import type { Connection } from 'mongoose';
import { BookView } from '../books/book.schema';
import { BooksService } from '../books/books.service';
import { requireLogin } from '../collections/collections.service';
import { BookConfig } from '../config/book.config';
import { userRating } from '../common/contributions';
import { simpleUsers } from '../common/users';
import { BookAggregateJournal, bookTarget } from './book-aggregate-journal';
import { difference, storedOf } from './book-user-aggregates';
import { ReviewDocument } from './review.schema';
import { ReviewsRepository } from './reviews.repository';

const MAX_SAMPLES = 50;

/**
 * Book reviews. A review's rating counts in the book's rating like a collection's (r as 2r out of
 * 10, docs/api/book.md). Only the author changes or deletes a review (403/6002).
 *
 * Crash consistency: the review document and the book's aggregates are two writes. Both run under
 * an entry of the book aggregates' journal (BookAggregateJournal, shared with collection entries),
 * completed by its sweep at start and every minute. The book service's reconcile
 * (`book.v1.reconcile.run`) is answered here too.
 */
@Injectable()
export class ReviewsService {
  private readonly lock = new KeyedMutex();
  private readonly sequences: Sequences;

  constructor(
    private readonly reviews: ReviewsRepository,
    private readonly books: BooksService,
    private readonly users: UsersDirectory,
    @InjectConnection() connection: Connection,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: BookConfig,
    private readonly journal: BookAggregateJournal,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {
    this.sequences = new Sequences(connection);
  }

  async create(input: ReviewCreateInput, caller: Caller): Promise<Review> {
    const userId = requireLogin(caller);
    await this.books.requireBook(input.book);
    const now = this.clock.now();
    const doc: ReviewDocument = {
      _id: await this.sequences.next('review'),
      book_id: input.book,
      author_id: userId,
      title: input.title.trim(),
      content: input.content,
      ...(input.rating ? { rating: input.rating } : {}),
      votes: 0,
      useless: 0,
      comments: 0,
      published: now,
      updated: now,
    };
    const book = await this.journal.run(doc.book_id, async () => {
      await this.reviews.insert(doc);
      return this.books.applyContribution(doc.book_id, undefined, doc);
    });
    return this.present(doc, book, await this.author(userId));
  }

  async update(id: string, input: ReviewUpdateInput, caller: Caller): Promise<Review> {
    const userId = requireLogin(caller);
    return this.lock.run(id, async () => {
      const previous = await this.requireOwn(id, userId);
      const { rating: _old, ...kept } = previous;
      const doc: ReviewDocument = {
        ...kept,
        title: input.title.trim(),
        content: input.content,
        ...(input.rating ? { rating: input.rating } : {}),
        updated: this.clock.now(),
      };
      const book = await this.journal.run(doc.book_id, async () => {
        await this.reviews.replace(doc);
        return this.books.applyContribution(doc.book_id, previous, doc);
      });
      return this.present(doc, book, await this.author(userId));
    });
  }

  async remove(id: string, caller: Caller): Promise<Record<string, never>> {
    const userId = requireLogin(caller);
    return this.lock.run(id, async () => {
      const previous = await this.requireOwn(id, userId);
      await this.journal.run(previous.book_id, async () => {
        await this.reviews.delete(previous._id);
        await this.books.applyContribution(previous.book_id, previous, undefined);
      });
      return {};
    });
  }

  /**
   * `book.v1.reconcile.run`: every book's users' rating and tags against its collection entries
   * and reviews. A drift is corrected only once it holds still (BookUserAggregates.correct);
   * books with a review write under way are left to it.
   */
  async reconcile(repair: boolean): Promise<ReconcileResponse> {
    const started = Date.now();
    // a dry run changes nothing: not even the journal's repairs (their targets count as busy)
    const journal = repair ? await this.journal.sweep() : { entries: 0, repaired: 0, failed: 0, removed: 0 };
    const busy = await this.journal.openTargets();
    const sources = await this.journal.aggregates.allFromSources();
    const checked = { books: 0, collections_and_reviews_by_book: sources.size };
    const drifts: Drift[] = [];
    let busyCount = 0;
    for await (const book of this.journal.aggregates.allStored()) {
      checked.books++;
      if (busy.has(bookTarget(book._id))) {
        busyCount++;
        continue;
      }
      const stored = storedOf(book);
      const source = sources.get(book._id) ?? { num: 0, sum: 0, tags: {} };
      if (difference(stored, source)) drifts.push({ kind: 'book.user_aggregates', id: book._id, stored, source });
    }
    let repaired = 0;
    if (repair) {
      // the same books again, each only once its drift holds still (a write in flight resolves itself)
      const confirmed = await Promise.all(drifts.map((d) => this.journal.exclusively(d.id, () => this.journal.aggregates.correct(d.id)).catch(() => undefined)));
      repaired = confirmed.filter((d) => d).length;
    }
    const drifted: Record<string, number> = drifts.length > 0 ? { 'book.user_aggregates': drifts.length } : {};
    for (const [kind, count] of Object.entries(drifted)) Metrics.reconcileDrift(kind, count);
    if (drifts.length > 0) this.logger.warn({ drifted, repaired, samples: drifts.slice(0, 10) }, 'reconcile: derived values differed from their sources');
    else this.logger.info({ checked, busy: busyCount }, 'reconcile: every derived value equals its source');
    return {
      service: 'book', checked, drifted, repaired, samples: drifts.slice(0, MAX_SAMPLES), busy: busyCount,
      journal: { entries: journal.entries, repaired: journal.repaired, removed: journal.removed }, ms: Date.now() - started,
    };
  }

  /** One review with its whole content, for anyone (reviews are public): the web page of its `alt`. */
  async get(id: string): Promise<Review> {
    const review = id.length <= 15 ? await this.reviews.byId(Number(id)) : null;
    if (!review) throw new ApiError('review_not_found', `no review ${id}`);
    const book = await this.books.requireBook(review.book_id);
    return this.present(review, book, await this.author(review.author_id));
  }

  /** A book's reviews, newest first, each with its `summary` (the first 100 characters) instead of `content`. */
  async listByBook(bookId: string, page: PageRequest): Promise<ReviewList> {
    const book = await this.books.requireBook(bookId);
    const { docs, total } = await this.reviews.byBook(bookId, page.start, page.count);
    const authors = await simpleUsers(this.users, [...new Set(docs.map((d) => d.author_id))]);
    const reviews = docs.map((doc) => {
      const { content, ...rest } = this.present(doc, book, authors(doc.author_id));
      const chars = [...(content ?? '')];
      return { ...rest, summary: chars.length > 100 ? `${chars.slice(0, 100).join('')}...` : chars.join('') };
    });
    return envelope('reviews', page.start, total, reviews);
  }

  private async requireOwn(id: string, userId: string): Promise<ReviewDocument> {
    // ids beyond 15 digits cannot name a stored review (numbers stay exact up to 2^53)
    const review = id.length <= 15 ? await this.reviews.byId(Number(id)) : null;
    if (!review) throw new ApiError('review_not_found', `no review ${id}`);
    if (review.author_id !== userId) throw new ApiError('unauthorized_error', 'only the author may change or delete a review');
    return review;
  }

  private async author(userId: string): Promise<SimpleUser> {
    return (await simpleUsers(this.users, [userId]))(userId);
  }

  /** The create and update answers carry the full `content` instead of `summary` (spec "Book review"). */
  private present(doc: ReviewDocument, book: BookView, author: SimpleUser): Review {
    const rating = userRating(doc.rating);
    const zone = this.config.SERVICE_TIMEZONE;
    return {
      id: doc._id,
      title: doc.title,
      alt: `${this.config.PUBLIC_WEB_URL.replace(/\/$/, '')}/book/review/${doc._id}/`,
      author,
      book: this.books.present(book),
      ...(rating ? { rating } : {}),
      votes: doc.votes ?? 0,
      useless: doc.useless ?? 0,
      comments: doc.comments ?? 0,
      content: doc.content,
      published: formatTimestamp(new Date(doc.published), zone),
      updated: formatTimestamp(new Date(doc.updated), zone),
    };
  }
}
