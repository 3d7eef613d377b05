import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { KeyedMutex } from '@plaza/platform';
import { DatabaseEngine, driverCollection, DRIVER_WRITE, rankedSearchPage, SearchPage, SearchQuery, SearchWindow } from '@plaza/service-kit';
import { Model } from 'mongoose';
import { movedBy } from '../common/contributions';
import { BookDocument, BookView } from './book.schema';
import { withoutSearchFields, withSearchFields } from './book-search';
import { BookTagRanksRepository } from './book-tag-ranks.repository';
import { BookLocalEngine } from './local-engine';

/** A change of the users' part of a book's rating and tags. */
export interface AggregateDelta {
  raters: number;
  /** Change of the sum of ratings on the 10 scale. */
  ratingSum: number;
  /** Tag name → change of its count. */
  tags: Map<string, number>;
}

/** The fields an import sets; the users' part and the bookkeeping are the repository's. */
export type CatalogueFields = Omit<BookDocument, '_id' | 'user_rating' | 'user_tags' | 'rev' | 'search_terms' | 'tag_keys' | 'title_terms' | 'title_keys' | 'search_rank'>;

const DUPLICATE_KEY = 11000;
const MAX_ATTEMPTS = 20;

interface PendingAggregates {
  deltas: AggregateDelta[];
  waiters: Array<{ resolve: (doc: BookDocument | null) => void; reject: (err: unknown) => void }>;
}

/**
 * The books collection. Reads are by `_id`.
 *
 * Writes are read-modify-replace by `_id`, under `lock` for that book. On MongoDB each replace is a
 * compare-and-swap on `rev` (DatabaseEngine.versionFilter), so any number of service instances
 * stay exact; the lock only spares this instance's own writes a retry. On the local engine the
 * lock is the guard (FerretDB v1 applies writes without isolation, and one instance runs).
 *
 * The users' rating and tag changes (`applyUserAggregates`, from collection and review writes):
 * on MongoDB, those of one book that arrive while a write of it is under way are applied together
 * by the next write (group commit), so 60 users rating one book at once cost a few writes, not 60
 * in a row. The local engine writes no book for them: it holds the users' aggregates in memory
 * (BookLocalEngine) and stores a book without them.
 *
 * Every write computes the book's search fields (book-search.ts). MongoDB stores them with the
 * book and then brings `book_tag_ranks` to them; the local engine stores the book without them
 * (`locallyStored`) and puts them in its in-memory index.
 */
@Injectable()
export class BooksRepository {
  readonly lock = new KeyedMutex();
  private readonly pending = new Map<string, PendingAggregates>();

  constructor(
    @InjectModel(BookDocument.name) private readonly books: Model<BookDocument>,
    private readonly engine: DatabaseEngine,
    private readonly tagRanks: BookTagRanksRepository,
    private readonly local: BookLocalEngine,
  ) {}

  /** A book to show (reads; writes read the stored document with `storedById`). Not to be changed. */
  async byId(id: string): Promise<BookView | null> {
    return (await this.byIds([id])).get(id) ?? null;
  }

  /**
   * Books to show, by id (a page of a search or of a list). On MongoDB one `$in` query on `_id`.
   * On the local engine the views the book service holds beside its search index (BookLocalEngine),
   * so a page costs no database read: FerretDB answers `$in` by a scan, and twenty lookups by `_id`
   * cost the engine twenty times a read's decoding (docs/PERFORMANCE.md, "Search and lists").
   * Until that index has loaded (at start), lookups by `_id`.
   */
  async byIds(ids: string[]): Promise<Map<string, BookView>> {
    const unique = [...new Set(ids)];
    if (unique.length === 0) return new Map();
    const docs: BookView[] = await this.engine.run('book.books.by-ids', {
      // one id (a read by id) as an equality: the same index on MongoDB, and no scan when the
      // MongoDB branch runs on FerretDB, which scans for any `$in` (docs/ENGINES.md)
      mongodb: () => this.books.find(unique.length === 1 ? { _id: unique[0] } : { _id: { $in: unique } }).limit(unique.length).lean<BookDocument[]>().exec(),
      local: async () => this.local.views(unique) ?? (await this.withHeldAggregates((await Promise.all(unique.map((id) => this.storedById(id)))).filter((d): d is BookDocument => d !== null))),
    });
    return new Map(docs.map((d) => [d._id, d]));
  }

  /** Whether `view` is one the local engine holds, and so lives as long as its book is unchanged (BooksService.presentJson). */
  isHeld(view: BookView): boolean {
    return this.local.holds(view);
  }

  /**
   * The book as stored, read by `_id`: what a write starts from. On the local engine without its
   * users' aggregates, which are held in memory (`aggregatesOf`, `withHeldAggregates`).
   */
  async storedById(id: string): Promise<BookDocument | null> {
    return driverCollection(this.books).findOne({ _id: id });
  }

  /**
   * A book's users' aggregates as they stand, with the version that changes with them (what a
   * repair compares with the sources): the stored book's on MongoDB, the held ones on the local
   * engine. Null when there is no such book.
   */
  async aggregatesOf(id: string): Promise<Pick<BookDocument, '_id' | 'user_rating' | 'user_tags' | 'rev'> | null> {
    const stored = await this.storedById(id);
    if (!stored || !(await this.engine.isLocal())) return stored;
    await this.local.userAggregatesReady();
    return { ...this.local.withUserAggregates(stored), rev: this.local.aggregateVersion(id) };
  }

  /** Resolves once the users' aggregates can be moved and read: at once on MongoDB, once counted on the local engine. */
  async aggregatesReady(): Promise<void> {
    if (await this.engine.isLocal()) await this.local.userAggregatesReady();
  }

  /** Every book's users' aggregates as they stand (reconcile), as `aggregatesOf` gives them. */
  async *allAggregates(): AsyncIterable<Pick<BookDocument, '_id' | 'user_rating' | 'user_tags' | 'rev'>> {
    const local = await this.engine.isLocal();
    if (local) await this.local.userAggregatesReady();
    for await (const book of this.books.find({}, { user_rating: 1, user_tags: 1, rev: 1 }).lean<Array<Pick<BookDocument, '_id' | 'user_rating' | 'user_tags' | 'rev'>>>().cursor()) {
      yield local ? { ...this.local.withUserAggregates(book), rev: this.local.aggregateVersion(book._id) } : book;
    }
  }

  /** Stored books (the local engine's) with the users' aggregates held for them. */
  private async withHeldAggregates(books: BookDocument[]): Promise<BookDocument[]> {
    await this.local.userAggregatesReady();
    return books.map((book) => this.local.withUserAggregates(book));
  }

  /**
   * One page of a search (order: book-search.ts) as book ids, with the number of matches up to the
   * window's limit. On MongoDB each tier is an indexed query with the page's skip and limit, and a
   * tag alone reads `book_tag_ranks`; on the local engine the in-memory index answers.
   */
  async searchPage(query: SearchQuery, window: SearchWindow): Promise<SearchPage> {
    return this.engine.run('book.search', {
      mongodb: () =>
        query.terms.length === 0 && query.tagKey !== undefined
          ? this.tagRanks.page(query.tagKey, window)
          : rankedSearchPage(this.books as unknown as Model<never>, query, window),
      local: () => this.local.searchPage(query, window),
    });
  }

  /** A page of the books of a series in id order, and how many it has: one indexed query each. */
  async inSeries(seriesId: string, start: number, count: number): Promise<{ total: number; books: BookDocument[] }> {
    const filter = { 'series.id': seriesId };
    const [total, books] = await Promise.all([
      this.books.countDocuments(filter).exec(),
      count === 0 ? Promise.resolve([]) : this.books.find(filter).sort({ _id: 1 }).skip(start).limit(count).lean<BookDocument[]>().exec(),
    ]);
    return { total, books: (await this.engine.isLocal()) ? await this.withHeldAggregates(books) : books };
  }

  /** Renames the series in every book that belongs to it (a series import changed its title). */
  async renameSeries(seriesId: string, title: string, around: (id: string, write: () => Promise<unknown>) => Promise<unknown> = (_, w) => w()): Promise<void> {
    const ids: string[] = [];
    for await (const book of this.books.find({ 'series.id': seriesId }, { _id: 1 }).lean<Array<{ _id: string }>>().cursor()) ids.push(book._id);
    for (const id of ids) {
      // `around`: the import publishes each renamed book to the change feed (docs/api/changes.md)
      await around(id, () => this.modify(id, (doc) => (doc.series && doc.series.title !== title ? { ...doc, series: { id: seriesId, title } } : null)));
    }
  }

  /**
   * Inserts or replaces the catalogue part of a book, keeping what users added. Returns the
   * stored book before the change (null for a new book). The same record twice writes nothing.
   */
  async upsertCatalogue(id: string, fields: CatalogueFields): Promise<BookDocument | null> {
    return this.lock.run(id, async () => {
      for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
        const previous = await this.storedById(id);
        const next = withSearchFields({
          ...dropUndefined(fields),
          _id: id,
          user_rating: previous?.user_rating ?? { num: 0, sum: 0 },
          user_tags: previous?.user_tags ?? {},
          rev: previous?.rev ?? 0,
        } as BookDocument);
        if (!previous) {
          if (await this.insert(next)) return null;
        } else {
          if (sameDocument(previous, next, await this.engine.isLocal())) {
            // unchanged, but a crash after its last write may have left the derived documents behind
            await this.ensureDerived(previous);
            return previous;
          }
          if (await this.swap(previous, next)) return previous;
        }
      }
      throw new Error(`book ${id} kept changing during its import`);
    });
  }

  /**
   * Brings what is derived from the stored book (its `book_tag_ranks` on MongoDB) to what the
   * book says, under the book's lock: the repair of a `book:` journal target and reconcile. On the
   * local engine the search index is rebuilt from the books at each start, so nothing is kept to
   * go stale. Returns how many derived documents differed (written unless `apply` is false).
   */
  async resyncDerived(id: string, apply = true): Promise<number> {
    return this.lock.run(id, async () => {
      const book = await this.storedById(id);
      return book ? this.ensureDerived(book, apply) : 0;
    });
  }

  private async ensureDerived(book: BookDocument, apply = true): Promise<number> {
    return (await this.engine.isLocal()) ? 0 : this.tagRanks.resync(book, apply);
  }

  /**
   * Applies a change of the users' rating and tags to a book and resolves with the book after
   * the write that included it (null when the book does not exist). Changes that queue while a
   * write of the book is under way go together in the next write, each exactly once.
   */
  applyUserAggregates(id: string, delta: AggregateDelta): Promise<BookView | null> {
    return this.engine.run('book.books.user-aggregates', {
      mongodb: () => this.writeUserAggregates(id, delta),
      local: () => this.lock.run(id, () => this.holdUserAggregates(id, delta)),
    });
  }

  /**
   * The local engine's: no write. The book as held (its view is the stored book without its search
   * fields) gets the moved aggregates in memory (BookLocalEngine); the database's book has none.
   */
  private async holdUserAggregates(id: string, delta: AggregateDelta): Promise<BookView | null> {
    await this.local.userAggregatesReady();
    const current = (this.local.heldView(id) as BookDocument | undefined) ?? (await this.storedById(id));
    if (!current) return null;
    this.local.applyUserAggregates(id, delta);
    const moved = this.local.withUserAggregates(current);
    await this.written(current, moved);
    return this.local.heldView(id) ?? moved;
  }

  /** MongoDB's: a compare-and-swap of the book, the changes that queue meanwhile in one write. */
  private writeUserAggregates(id: string, delta: AggregateDelta): Promise<BookDocument | null> {
    return new Promise((resolve, reject) => {
      let batch = this.pending.get(id);
      if (!batch) {
        const next: PendingAggregates = { deltas: [], waiters: [] };
        this.pending.set(id, next);
        this.lock
          .run(id, () => {
            // from here on, new changes start the next batch
            this.pending.delete(id);
            return this.modifyLocked(id, (doc) => next.deltas.reduce(applyDelta, doc));
          })
          .then(
            (doc) => next.waiters.forEach((w) => w.resolve(doc)),
            (err: unknown) => next.waiters.forEach((w) => w.reject(err)),
          );
        batch = next;
      }
      batch.deltas.push(delta);
      batch.waiters.push({ resolve, reject });
    });
  }

  /** Read, change, compare-and-swap, under the book's lock; `change` returning null writes nothing. */
  private async modify(id: string, change: (doc: BookDocument) => BookDocument | null): Promise<BookDocument | null> {
    return this.lock.run(id, () => this.modifyLocked(id, change));
  }

  private async modifyLocked(id: string, change: (doc: BookDocument) => BookDocument | null): Promise<BookDocument | null> {
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const current = await this.storedById(id);
      if (!current) return null;
      const next = change(current);
      if (!next) return current;
      const stored = await this.swap(current, next);
      if (stored) return stored;
    }
    throw new Error(`book ${id} kept changing under a write`);
  }

  /** Replaces `current` by `next` unless someone else changed it since it was read. */
  private async swap(current: BookDocument, next: BookDocument): Promise<BookDocument | null> {
    const rev = current.rev ?? 0;
    const stored = { ...next, rev: rev + 1 };
    const filter = await this.engine.versionFilter('book.books.replace', current._id, current.rev);
    const document = await this.storedForm(stored);
    const result = await this.engine.write(() => driverCollection(this.books).replaceOne(filter, document, DRIVER_WRITE));
    if (result.matchedCount !== 1) return null;
    await this.written(current, stored);
    return stored;
  }

  private async insert(doc: BookDocument): Promise<boolean> {
    const document = await this.storedForm(doc);
    try {
      await this.engine.write(() => this.books.create(document));
    } catch (err) {
      if ((err as { code?: number }).code === DUPLICATE_KEY) return false;
      throw err;
    }
    await this.written(null, doc);
    return true;
  }

  /** The document a write stores: on the local engine, without the search fields and users' aggregates it keeps in memory. */
  private async storedForm(doc: BookDocument): Promise<BookDocument> {
    return (await this.engine.isLocal()) ? locallyStored(doc) : doc;
  }

  /** What follows a stored write: the search's derived data of each branch. */
  private written(previous: BookDocument | null, stored: BookDocument): Promise<void> {
    return this.engine.run('book.books.search-upkeep', {
      mongodb: () => this.tagRanks.sync(previous, stored),
      local: async () => {
        await this.local.userAggregatesReady();
        this.local.bookWritten(stored);
      },
    });
  }

}

/** The book with the users' rating and tag counts changed; a tag whose count falls to 0 is dropped. */
export function applyDelta(doc: BookDocument, delta: AggregateDelta): BookDocument {
  const moved = movedBy({ num: doc.user_rating?.num ?? 0, sum: doc.user_rating?.sum ?? 0, tags: doc.user_tags ?? {} }, delta);
  return withSearchFields({ ...doc, user_rating: { num: moved.num, sum: moved.sum }, user_tags: moved.tags });
}

function dropUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

/**
 * The book as the local engine stores it: without its search fields (computed from the rest when
 * it is loaded) nor its users' aggregates (counted from their sources when the service starts):
 * BookLocalEngine holds both (docs/ENGINES.md, "What the local branch does not store").
 */
function locallyStored(doc: BookDocument): BookDocument {
  return { ...withoutSearchFields(doc), user_rating: { num: 0, sum: 0 }, user_tags: {} };
}

/**
 * Equal as stored (key order aside), ignoring `rev`; and the search fields and users' aggregates
 * too when `local`: that engine does not store them (`storedForm`).
 */
function sameDocument(a: BookDocument, b: BookDocument, local: boolean): boolean {
  const canonical = (doc: BookDocument) =>
    JSON.stringify({ ...(local ? locallyStored(doc) : doc), rev: 0 }, (_, x) => (x && typeof x === 'object' && !Array.isArray(x) ? Object.fromEntries(Object.entries(x).sort()) : x));
  return canonical(a) === canonical(b);
}
