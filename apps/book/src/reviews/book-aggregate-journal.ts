import { Inject, Injectable, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { InjectConnection, InjectModel } from '@nestjs/mongoose';
import { CacheInvalidator, LOGGER, Logger, ReadinessRegistry } from '@plaza/platform';
import { RepairJournal, scheduleSweeps, splitTarget, SweepResult } from '@plaza/service-kit';
import type { Connection, Model } from 'mongoose';
import { BookDocument } from '../books/book.schema';
import { BooksRepository } from '../books/books.repository';
import { CollectionDocument } from '../collections/collection.schema';
import { BookUserAggregates } from './book-user-aggregates';
import { ReviewDocument } from './review.schema';

/** How often the journal is swept while the service runs (it is swept at start too). */
const SWEEP_INTERVAL_MS = 60_000;

export const bookTarget = (bookId: string) => `book:${bookId}`;

/**
 * The journal of the writes that move a book's users' rating and tags (docs/ENGINES.md point 3):
 * a collection entry or a review, then the book's aggregates by their difference. Each runs under
 * an entry naming `book:<id>`; an entry left by a process that died between the two steps has the
 * book's aggregates recomputed from its entries and reviews (BookUserAggregates.correct) by the
 * sweep at start, before this process takes its first such write, and every minute.
 *
 * A correction compares the book with its sources, so no write of that book may be half done in
 * this process meanwhile (it would be counted by the sources and then again by its difference):
 * a book under repair waits for its writes in flight to finish and holds new ones until it is
 * done. Another instance's writes (MongoDB replica sets) are covered by the journal's grace
 * period and by `correct` measuring twice (see BookUserAggregates).
 *
 * The collection keeps the name it had when reviews were its only writers, so entries left by an
 * older version are completed too.
 */
@Injectable()
export class BookAggregateJournal implements OnModuleInit, OnApplicationShutdown {
  readonly aggregates: BookUserAggregates;
  private readonly journal: RepairJournal;
  private schedule?: { first: Promise<void>; stop(): void };
  private recovered = false;
  /** Writes of this process in flight, by book. */
  private readonly writing = new Map<string, number>();
  /** Books under repair: their new writes wait for it. */
  private readonly repairing = new Map<string, Promise<void>>();
  /** Called when a book's last write in flight finishes (a repair waiting for it). */
  private readonly drained = new Map<string, () => void>();

  constructor(
    @InjectConnection() connection: Connection,
    books: BooksRepository,
    @InjectModel(BookDocument.name) bookModel: Model<BookDocument>,
    @InjectModel(CollectionDocument.name) collectionModel: Model<CollectionDocument>,
    @InjectModel(ReviewDocument.name) reviewModel: Model<ReviewDocument>,
    cache: CacheInvalidator,
    private readonly readiness: ReadinessRegistry,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {
    this.journal = new RepairJournal(connection, 'review_repairs');
    this.aggregates = new BookUserAggregates(books, bookModel, collectionModel, reviewModel, cache);
  }

  onModuleInit(): void {
    this.readiness.register({ name: 'book-aggregates-recovery', check: async () => this.recovered });
    this.schedule = scheduleSweeps(() => this.sweep(), SWEEP_INTERVAL_MS, (err) => this.logger.warn({ err: err.message }, 'book aggregates repair sweep failed; will retry'));
    void this.schedule.first.then(() => (this.recovered = true));
  }

  async onApplicationShutdown(): Promise<void> {
    this.schedule?.stop();
    await this.journal.flush();
  }

  /**
   * Runs a write of a source of the book's aggregates (an entry or a review, then the book) under
   * a journal entry. Waits for the first sweep, and for a repair of the same book under way.
   */
  async run<T>(bookId: string, work: () => Promise<T>): Promise<T> {
    await (this.schedule?.first ?? Promise.resolve());
    for (let repair = this.repairing.get(bookId); repair; repair = this.repairing.get(bookId)) await repair;
    this.writing.set(bookId, (this.writing.get(bookId) ?? 0) + 1);
    try {
      return await this.journal.run([bookTarget(bookId)], work);
    } finally {
      const left = (this.writing.get(bookId) ?? 1) - 1;
      if (left > 0) this.writing.set(bookId, left);
      else {
        this.writing.delete(bookId);
        this.drained.get(bookId)?.();
      }
    }
  }

  /** Targets with an entry: a write under way, or one that died and awaits its repair. */
  openTargets(): Promise<Set<string>> {
    return this.journal.openTargets();
  }

  /**
   * Repairs the books named by entries of writes that did not finish. A correction is not right
   * while such a write may still run (`settled` false: another instance's recent entry); that one
   * waits for a later sweep.
   */
  async sweep(): Promise<SweepResult> {
    const result = await this.journal.sweep(async (target, _keys, settled) => {
      const [kind, id] = splitTarget(target);
      if (kind !== 'book') throw new Error(`not a book target: ${target}`);
      if (!settled) throw new Error(`a write of book ${id} may still be running`);
      const drift = await this.exclusively(id, () => this.aggregates.correct(id));
      if (drift) this.logger.warn({ drift }, 'a collection or review write left unfinished had left the book aggregates off: corrected');
    });
    if (result.entries > 0) this.logger.info({ ...result }, 'collection and review writes left unfinished were repaired');
    return result;
  }

  /** Runs `work` with no write of the book in flight in this process, holding new ones until it ends. */
  async exclusively<T>(bookId: string, work: () => Promise<T>): Promise<T> {
    for (let repair = this.repairing.get(bookId); repair; repair = this.repairing.get(bookId)) await repair;
    let release!: () => void;
    this.repairing.set(bookId, new Promise<void>((resolve) => (release = resolve)));
    try {
      if (this.writing.has(bookId)) await new Promise<void>((resolve) => this.drained.set(bookId, resolve));
      return await work();
    } finally {
      this.drained.delete(bookId);
      this.repairing.delete(bookId);
      release();
    }
  }
}
