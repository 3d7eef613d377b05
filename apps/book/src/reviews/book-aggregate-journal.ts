import { Inject, Injectable, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { InjectConnection, InjectModel } from '@nestjs/mongoose';
import { CacheInvalidator, LOGGER, Logger, ReadinessRegistry } from '@plaza/platform';
import { DatabaseEngine, RepairJournal, scheduleSweeps, splitTarget, SweepResult } from '@plaza/service-kit';
import type { Connection, Model } from 'mongoose';
import { BooksRepository } from '../books/books.repository';
import { CollectionDocument } from '../collections/collection.schema';
import { UserTagCountsRepository } from '../collections/user-tag-counts.repository';
import { BookUserAggregates } from './book-user-aggregates';
import { ReviewDocument } from './review.schema';

/** How often the journal is swept while the service runs (it is swept at start too). */
const SWEEP_INTERVAL_MS = 60_000;

export const bookTarget = (bookId: string) => `book:${bookId}`;
export const userTarget = (userId: string) => `user:${userId}`;

/**
 * The journal of the writes that move a book's users' rating and tags (docs/ENGINES.md point 3):
 * a collection entry or a review, then the book's aggregates by their difference (and after it the
 * book's `book_tag_ranks`), and for an entry the user's `user_tag_counts` by `$inc` (MongoDB). Each
 * runs under an entry naming `book:<id>` (and `user:<id>` for an entry); an entry left by a process
 * that died between the steps is completed by the sweep at start, before this process takes its
 * first such write, and every minute: a book has its aggregates recomputed from its entries and
 * reviews (BookUserAggregates.correct) and its tag ranks re-synced from the book
 * (BooksRepository.resyncDerived), a user has their tag counts recounted from their entries
 * (UserTagCountsRepository.correct). Each is idempotent.
 *
 * A correction compares a derived value with its sources, so no write of that book or user may be
 * half done in this process meanwhile (it would be counted by the sources and then again by its
 * difference): a target under repair waits for its writes in flight to finish and holds new ones
 * until it is done. Another instance's writes (MongoDB replica sets) are covered by the journal's
 * grace period and by the corrections measuring twice (see BookUserAggregates).
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
  /** Writes of this process in flight, by target. */
  private readonly writing = new Map<string, number>();
  /** Targets under repair: their new writes wait for it. */
  private readonly repairing = new Map<string, Promise<void>>();
  /** Called when a target's last write in flight finishes (a repair waiting for it). */
  private readonly drained = new Map<string, () => void>();

  constructor(
    @InjectConnection() connection: Connection,
    @InjectModel(CollectionDocument.name) collectionModel: Model<CollectionDocument>,
    @InjectModel(ReviewDocument.name) reviewModel: Model<ReviewDocument>,
    cache: CacheInvalidator,
    private readonly books: BooksRepository,
    readonly tagCounts: UserTagCountsRepository,
    private readonly engine: DatabaseEngine,
    private readonly readiness: ReadinessRegistry,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {
    this.journal = new RepairJournal(connection, 'review_repairs');
    this.aggregates = new BookUserAggregates(this.books, collectionModel, reviewModel, cache);
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
   * a journal entry naming the book, and the user whose tag counts an entry write moves. Waits for
   * the first sweep, and for a repair of the same targets under way. On the local engine no entry
   * is written: the aggregates, tag counts and tag ranks are held in memory and counted from their
   * sources at every start (BookLocalEngine), so a crash between the steps leaves nothing off.
   */
  async run<T>(bookId: string, work: () => Promise<T>, userId?: string): Promise<T> {
    await (this.schedule?.first ?? Promise.resolve());
    const targets = [bookTarget(bookId), ...(userId !== undefined ? [userTarget(userId)] : [])];
    for (const target of targets) {
      for (let repair = this.repairing.get(target); repair; repair = this.repairing.get(target)) await repair;
      this.writing.set(target, (this.writing.get(target) ?? 0) + 1);
    }
    try {
      return await this.engine.run('book.aggregates.journal', { mongodb: () => this.journal.run(targets, work), local: work });
    } finally {
      for (const target of targets) {
        const left = (this.writing.get(target) ?? 1) - 1;
        if (left > 0) this.writing.set(target, left);
        else {
          this.writing.delete(target);
          this.drained.get(target)?.();
        }
      }
    }
  }

  /**
   * Runs `work` (many writes, then their corrections: an import batch) under one journal entry
   * naming every book and user it may leave off, so that a crash anywhere in it, the corrections
   * included, is completed by the sweep. Not counted as a write in flight: the corrections inside
   * it take the targets exclusively, and each single write inside runs under `run` as usual.
   */
  async runBatch<T>(bookIds: string[], userIds: string[], work: () => Promise<T>): Promise<T> {
    await (this.schedule?.first ?? Promise.resolve());
    const targets = [...new Set(bookIds)].map(bookTarget).concat([...new Set(userIds)].map(userTarget));
    return targets.length === 0 ? work() : this.journal.run(targets, work);
  }

  /** Targets with an entry: a write under way, or one that died and awaits its repair. */
  openTargets(): Promise<Set<string>> {
    return this.journal.openTargets();
  }

  /**
   * Repairs the books and users named by entries of writes that did not finish. A correction is
   * not right while such a write may still run (`settled` false: another instance's recent entry);
   * that one waits for a later sweep.
   */
  async sweep(): Promise<SweepResult> {
    // the local engine's aggregates are counted first: every write waits for the first sweep
    await this.books.aggregatesReady();
    const result = await this.journal.sweep(async (target, _keys, settled) => {
      const [kind, id] = splitTarget(target);
      if (kind !== 'book' && kind !== 'user') throw new Error(`not a book or user target: ${target}`);
      if (!settled) throw new Error(`a write of ${target} may still be running`);
      const drift = await this.exclusively(target, () => this.repair(kind, id));
      if (drift) this.logger.warn({ drift }, 'a collection or review write left unfinished had left derived values off: corrected');
    });
    if (result.entries > 0) this.logger.info({ ...result }, 'collection and review writes left unfinished were repaired');
    return result;
  }

  /**
   * A book: its aggregates from its entries and reviews, then its tag ranks from the book (always:
   * a write that died after the aggregates and before the ranks leaves nothing for `correct` to do).
   * A user: their tag counts from their entries (MongoDB; the local engine counts from memory).
   */
  private async repair(kind: 'book' | 'user', id: string): Promise<unknown> {
    if (kind === 'user') return (await this.engine.isLocal()) ? null : this.tagCounts.correct(id);
    const drift = await this.aggregates.correct(id);
    const ranks = await this.books.resyncDerived(id);
    return drift ?? (ranks > 0 ? { kind: 'book.tag_ranks', id, stored: `${ranks} stale`, source: 'the book' } : null);
  }

  /** Runs `work` with no write of the target (`book:<id>`, `user:<id>`, or a book id) in flight in this process, holding new ones until it ends. */
  async exclusively<T>(target: string, work: () => Promise<T>): Promise<T> {
    if (!target.includes(':')) target = bookTarget(target);
    for (let repair = this.repairing.get(target); repair; repair = this.repairing.get(target)) await repair;
    let release!: () => void;
    this.repairing.set(target, new Promise<void>((resolve) => (release = resolve)));
    try {
      if (this.writing.has(target)) await new Promise<void>((resolve) => this.drained.set(target, resolve));
      return await work();
    } finally {
      this.drained.delete(target);
      this.repairing.delete(target);
      release();
    }
  }
}
