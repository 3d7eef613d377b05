import { Inject, Injectable, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { InjectConnection, InjectModel } from '@nestjs/mongoose';
import { ApiError, Caller, Drift, ReconcileResponse, Review, ReviewCreateInput, ReviewUpdateInput, SimpleUser } from '@plaza/contracts';
import {
  APP_CONFIG, CacheInvalidator, Clock, CLOCK, formatTimestamp, KeyedMutex, LOGGER, Logger, ReadinessRegistry, UsersDirectory, Metrics,
} from '@plaza/platform';
import { RepairJournal, scheduleSweeps, Sequences, splitTarget, SweepResult } from '@plaza/service-kit';
import type { Connection, Model } from 'mongoose';
import { BookDocument } from '../books/book.schema';
import { BooksRepository } from '../books/books.repository';
import { BooksService } from '../books/books.service';
import { CollectionDocument } from '../collections/collection.schema';
import { requireLogin } from '../collections/collections.service';
import { BookConfig } from '../config/book.config';
import { userRating } from '../shared/contributions';
import { simpleUsers } from '../shared/users';
import { BookUserAggregates, difference, storedOf } from './book-user-aggregates';
import { ReviewDocument } from './review.schema';
import { ReviewsRepository } from './reviews.repository';

/** How often the journal is swept while the service runs (it is swept at start too). */
const SWEEP_INTERVAL_MS = 60_000;
const MAX_SAMPLES = 50;

const bookTarget = (bookId: string) => `book:${bookId}`;

/**
 * Book reviews. A review's rating counts in the book's rating like a collection's (r as 2r out of
 * 10, docs/api/book.md). Only the author changes or deletes a review (403/6002).
 *
 * Crash consistency: the review document and the book's aggregates are two writes. Both run under
 * an entry of the `review_repairs` journal; an entry left by a process that died between them has
 * the book's aggregates recomputed from its entries and reviews (BookUserAggregates.correct) by
 * the sweep at start, before this service takes its first review write, and every minute. The
 * book service's reconcile (`book.v1.reconcile.run`) is answered here too.
 */
@Injectable()
export class ReviewsService implements OnModuleInit, OnApplicationShutdown {
  private readonly lock = new KeyedMutex();
  private readonly sequences: Sequences;
  private readonly journal: RepairJournal;
  private readonly aggregates: BookUserAggregates;
  private schedule?: { first: Promise<void>; stop(): void };
  private recovered = false;

  constructor(
    private readonly reviews: ReviewsRepository,
    private readonly books: BooksService,
    private readonly users: UsersDirectory,
    @InjectConnection() connection: Connection,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: BookConfig,
    bookRecords: BooksRepository,
    @InjectModel(BookDocument.name) bookModel: Model<BookDocument>,
    @InjectModel(CollectionDocument.name) collectionModel: Model<CollectionDocument>,
    @InjectModel(ReviewDocument.name) reviewModel: Model<ReviewDocument>,
    cache: CacheInvalidator,
    private readonly readiness: ReadinessRegistry,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {
    this.sequences = new Sequences(connection);
    this.journal = new RepairJournal(connection, 'review_repairs');
    this.aggregates = new BookUserAggregates(bookRecords, bookModel, collectionModel, reviewModel, cache);
  }

  onModuleInit(): void {
    this.readiness.register({ name: 'reviews-recovery', check: async () => this.recovered });
    this.schedule = scheduleSweeps(() => this.sweep(), SWEEP_INTERVAL_MS, (err) => this.logger.warn({ err: err.message }, 'review repair sweep failed; will retry'));
    void this.schedule.first.then(() => (this.recovered = true));
  }

  async onApplicationShutdown(): Promise<void> {
    this.schedule?.stop();
    await this.journal.flush();
  }

  /**
   * Repairs the books named by entries of review writes that did not finish. A correction is not
   * right while such a write may still run (`settled` false: another instance's recent entry);
   * that one waits for a later sweep.
   */
  async sweep(): Promise<SweepResult> {
    const result = await this.journal.sweep(async (target, _keys, settled) => {
      const [kind, id] = splitTarget(target);
      if (kind !== 'book') throw new Error(`not a book target: ${target}`);
      if (!settled) throw new Error(`a write of book ${id} may still be running`);
      const drift = await this.aggregates.correct(id);
      if (drift) this.logger.warn({ drift }, 'a review write left unfinished had left the book aggregates off: corrected');
    });
    if (result.entries > 0) this.logger.info({ ...result }, 'review writes left unfinished were repaired');
    return result;
  }

  /** Review writes wait for the first sweep: a correction must not meet a review write of this process. */
  private recovery(): Promise<void> {
    return this.schedule?.first ?? Promise.resolve();
  }

  async create(input: ReviewCreateInput, caller: Caller): Promise<Review> {
    const userId = requireLogin(caller);
    await this.books.requireBook(input.book);
    await this.recovery();
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
    const book = await this.journal.run([bookTarget(doc.book_id)], async () => {
      await this.reviews.insert(doc);
      return this.books.applyContribution(doc.book_id, undefined, doc);
    });
    return this.present(doc, book, await this.author(userId));
  }

  async update(id: string, input: ReviewUpdateInput, caller: Caller): Promise<Review> {
    const userId = requireLogin(caller);
    await this.recovery();
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
      const book = await this.journal.run([bookTarget(doc.book_id)], async () => {
        await this.reviews.replace(doc);
        return this.books.applyContribution(doc.book_id, previous, doc);
      });
      return this.present(doc, book, await this.author(userId));
    });
  }

  async remove(id: string, caller: Caller): Promise<Record<string, never>> {
    const userId = requireLogin(caller);
    await this.recovery();
    return this.lock.run(id, async () => {
      const previous = await this.requireOwn(id, userId);
      await this.journal.run([bookTarget(previous.book_id)], async () => {
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
    const journal = repair ? await this.sweep() : { entries: 0, repaired: 0, failed: 0, removed: 0 };
    const busy = await this.journal.openTargets();
    const sources = await this.aggregates.allFromSources();
    const checked = { books: 0, collections_and_reviews_by_book: sources.size };
    const drifts: Drift[] = [];
    let busyCount = 0;
    for await (const book of this.aggregates.allStored()) {
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
      const confirmed = await Promise.all(drifts.map((d) => this.aggregates.correct(d.id).catch(() => undefined)));
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
  private present(doc: ReviewDocument, book: BookDocument, author: SimpleUser): Review {
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
