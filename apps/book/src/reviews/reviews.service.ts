import { Inject, Injectable } from '@nestjs/common';
import { ApiError, Caller, Drift, envelope, PageRequest, ReconcileResponse, Review, ReviewCreateInput, ReviewList, ReviewUpdateInput, SimpleUser } from '@plaza/contracts';
import { APP_CONFIG, Clock, CLOCK, formatTimestamp, KeyedMutex, LOGGER, Logger, UsersDirectory } from '@plaza/platform';
import { confirmDrifts, DatabaseEngine, NO_SWEEP, reconcileReport, Sequences } from '@plaza/service-kit';
import { BookView } from '../books/book.schema';
import { BooksRepository } from '../books/books.repository';
import { BooksService } from '../books/books.service';
import { requireLogin } from '../collections/collections.service';
import { BookConfig } from '../config/book.config';
import { userRating } from '../common/contributions';
import { simpleUsers } from '../common/users';
import { BookAggregateJournal, bookTarget, userTarget } from './book-aggregate-journal';
import { difference, storedOf } from './book-user-aggregates';
import { ReviewDocument } from './review.schema';
import { ReviewsRepository } from './reviews.repository';


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

  constructor(
    private readonly reviews: ReviewsRepository,
    private readonly books: BooksService,
    private readonly users: UsersDirectory,
    private readonly sequences: Sequences,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: BookConfig,
    private readonly journal: BookAggregateJournal,
    @Inject(LOGGER) private readonly logger: Logger,
    private readonly engine: DatabaseEngine,
    private readonly bookRecords: BooksRepository,
  ) {}

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
   * and reviews, and on MongoDB every user's `user_tag_counts` against their entries and every
   * book's `book_tag_ranks` against the book (the local engine derives both in memory at start).
   * A drift of the counts is corrected only once it holds still (BookUserAggregates.correct,
   * UserTagCountsRepository.correct); ranks are re-synced under the book's lock, never over a
   * newer revision. Books and users with a write under way are left to it.
   */
  async reconcile(repair: boolean): Promise<ReconcileResponse> {
    const started = Date.now();
    // a dry run changes nothing: not even the journal's repairs (their targets count as busy)
    const journal = repair ? await this.journal.sweep() : NO_SWEEP;
    const busy = await this.journal.openTargets();
    const mongodb = !(await this.engine.isLocal());
    const sources = await this.journal.aggregates.allFromSources();
    const checked: Record<string, number> = { books: 0, collections_and_reviews_by_book: sources.size };
    const drifts: Drift[] = [];
    const rankDrifts: Drift[] = [];
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
      if (mongodb) {
        // one indexed read per book; written at once when repairing (idempotent, under the book's lock)
        const stale = await this.bookRecords.resyncDerived(book._id, repair);
        if (stale > 0) rankDrifts.push({ kind: 'book.tag_ranks', id: book._id, stored: `${stale} tag documents differ`, source: 'the book' });
      }
    }
    let userDrifts: Drift[] = [];
    if (mongodb) {
      const { users, drifts: all } = await this.journal.tagCounts.allDrifts();
      busyCount += all.filter((d) => busy.has(userTarget(d.id))).length;
      userDrifts = all.filter((d) => !busy.has(userTarget(d.id)));
      checked.users_tag_counts = users;
      checked.books_tag_ranks = checked.books;
    }
    // the bulk pass only names suspects: a write between its reads makes a book or user differ
    // though nothing drifted, so each is checked again on its own (confirmDrifts)
    const openTargets = () => this.journal.openTargets();
    const books = await confirmDrifts(drifts.map((d) => d.id), {
      target: bookTarget, openTargets,
      exclusive: (id, task) => this.journal.exclusively(bookTarget(id), task),
      differences: async (id) => [await this.journal.aggregates.drift(id)].filter((d): d is Drift => d !== null),
    });
    const users = await confirmDrifts(userDrifts.map((d) => d.id), {
      target: userTarget, openTargets,
      exclusive: (id, task) => this.journal.exclusively(userTarget(id), task),
      differences: async (id) => [await this.journal.tagCounts.drift(id)].filter((d): d is Drift => d !== null),
    });
    let repaired = rankDrifts.length > 0 && repair ? rankDrifts.length : 0;
    if (repair) {
      // corrected only once the drift holds still (a write in flight elsewhere resolves itself)
      const corrected = await Promise.all([
        ...books.drifts.map((d) => this.journal.exclusively(bookTarget(d.id), () => this.journal.aggregates.correct(d.id)).catch(() => undefined)),
        ...users.drifts.map((d) => this.journal.exclusively(userTarget(d.id), () => this.journal.tagCounts.correct(d.id)).catch(() => undefined)),
      ]);
      repaired += corrected.filter((d) => d).length;
    }
    return reconcileReport('book', {
      checked, drifts: [...books.drifts, ...users.drifts, ...rankDrifts], repaired, busy: busyCount + books.busy + users.busy, journal, started,
    }, this.logger);
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

  /** The create and update answers carry the full `content` instead of `summary` (docs/api/book.md, "Decisions", 10). */
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
