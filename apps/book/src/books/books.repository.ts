import { Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { KeyedMutex } from '@plaza/platform';
import { DatabaseEngine } from '@plaza/service-kit';
import { Model } from 'mongoose';
import { BookDocument } from './book.schema';
import { tagFromKey, tagKey, tagSearchKey } from './book-view';
import { createBookSearchIndex, SEARCH_CARD_FIELDS, SearchCard } from './book-search-index';

const CARD_PROJECTION = Object.fromEntries(SEARCH_CARD_FIELDS.map((f) => [f, 1]));

/** A change of the users' part of a book's rating and tags. */
export interface AggregateDelta {
  raters: number;
  /** Change of the sum of ratings on the 10 scale. */
  ratingSum: number;
  /** Tag name → change of its count. */
  tags: Map<string, number>;
}

/** The fields an import sets; the users' part and the bookkeeping are the repository's. */
export type CatalogueFields = Omit<BookDocument, '_id' | 'user_rating' | 'user_tags' | 'tag_keys' | 'rev'>;

const DUPLICATE_KEY = 11000;
const MAX_ATTEMPTS = 20;

interface PendingAggregates {
  deltas: AggregateDelta[];
  waiters: Array<{ resolve: (doc: BookDocument | null) => void; reject: (err: unknown) => void }>;
}

/**
 * The books collection. Reads are by `_id`.
 *
 * Writes are read-modify-replace by `_id`, under `lock` for that book: FerretDB v1 applies writes
 * without isolation. On MongoDB each replace is also a compare-and-swap on `rev`, so several
 * service instances stay exact (see DatabaseEngine).
 *
 * FerretDB v1 (SQLite) finds and inserts by `_id` with its index, but every write that changes a
 * stored document scans the collection (measured on the 3000-book demo catalogue: about 100 ms a
 * write, against 3 ms for a read). So the users' rating and tag changes of one book that arrive
 * while a write of that book is under way are applied together by the next write (group commit):
 * 60 users rating one book at once cost a few writes, not 60 in a row.
 */
@Injectable()
export class BooksRepository implements OnApplicationBootstrap {
  readonly lock = new KeyedMutex();
  private readonly searchIndex = createBookSearchIndex();
  private readonly pending = new Map<string, PendingAggregates>();

  constructor(
    @InjectModel(BookDocument.name) private readonly books: Model<BookDocument>,
    private readonly engine: DatabaseEngine,
  ) {}

  async byId(id: string): Promise<BookDocument | null> {
    return this.books.findById(id).lean<BookDocument>().exec();
  }

  /** A few books by id: parallel lookups by `_id` (FerretDB scans for `$in`). */
  async byIds(ids: string[]): Promise<Map<string, BookDocument>> {
    const unique = [...new Set(ids)];
    const docs = await Promise.all(unique.map((id) => this.byId(id)));
    return new Map(docs.filter((d): d is BookDocument => d !== null).map((d) => [d._id, d]));
  }

  /**
   * Books whose search terms include every one of `terms` and, when given, the tag. Whole
   * documents: FerretDB v1 reads each whole document while it scans anyway, and a second round
   * of lookups for the page costs more than sending the matches whole (measured).
   */
  async search(terms: string[], tag: string | undefined): Promise<SearchCard[]> {
    if (await this.engine.isFerretDb()) {
      await this.searchIndex.ready(() => this.allForSearch());
      return this.searchIndex.matching(terms, tag === undefined ? undefined : tagSearchKey(tag));
    }
    const filter: Record<string, unknown> = {};
    if (terms.length > 0) filter.search_terms = { $all: terms };
    if (tag !== undefined) filter.tag_keys = tagSearchKey(tag);
    return this.books.find(filter, CARD_PROJECTION).lean<SearchCard[]>().exec();
  }

  /** Every book, for the local engine's search index (what it indexes and ranks by). */
  private async *allForSearch(): AsyncIterable<BookDocument> {
    yield* this.books.find({}, { ...CARD_PROJECTION, search_terms: 1, tag_keys: 1 }).lean<BookDocument[]>().cursor();
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.searchIndex.preload(this.engine, () => this.allForSearch());
  }

  async inSeries(seriesId: string): Promise<BookDocument[]> {
    return this.books.find({ 'series.id': seriesId }).lean<BookDocument[]>().exec();
  }

  /** Renames the series in every book that belongs to it (a series import changed its title). */
  async renameSeries(seriesId: string, title: string): Promise<void> {
    const ids = (await this.books.find({ 'series.id': seriesId }, { _id: 1 }).lean<Array<{ _id: string }>>().exec()).map((b) => b._id);
    for (const id of ids) {
      await this.modify(id, (doc) => (doc.series && doc.series.title !== title ? { ...doc, series: { id: seriesId, title } } : null));
    }
  }

  /**
   * Inserts or replaces the catalogue part of a book, keeping what users added. Returns the
   * stored book before the change (null for a new book). The same record twice writes nothing.
   */
  async upsertCatalogue(id: string, fields: CatalogueFields): Promise<BookDocument | null> {
    return this.lock.run(id, async () => {
      for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
        const previous = await this.byId(id);
        const next = withTagKeys({
          ...dropUndefined(fields),
          _id: id,
          user_rating: previous?.user_rating ?? { num: 0, sum: 0 },
          user_tags: previous?.user_tags ?? {},
          tag_keys: [],
          rev: previous?.rev ?? 0,
        } as BookDocument);
        if (!previous) {
          if (await this.insert(next)) return null;
        } else {
          if (sameDocument(previous, next)) return previous;
          if (await this.swap(previous, next)) return previous;
        }
      }
      throw new Error(`book ${id} kept changing during its import`);
    });
  }

  /**
   * Applies a change of the users' rating and tags to a book and resolves with the book after
   * the write that included it (null when the book does not exist). Changes that queue while a
   * write of the book is under way go together in the next write, each exactly once.
   */
  applyUserAggregates(id: string, delta: AggregateDelta): Promise<BookDocument | null> {
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
      const current = await this.byId(id);
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
    // FerretDB: the lock is the guard (a filter beyond `_id` would scan); MongoDB: compare-and-swap
    const filter = (await this.engine.isFerretDb()) ? { _id: current._id } : { _id: current._id, rev };
    const result = await this.books.replaceOne(filter, stored).exec();
    if (result.matchedCount !== 1) return null;
    if (await this.engine.isFerretDb()) this.searchIndex.put(stored);
    return stored;
  }

  private async insert(doc: BookDocument): Promise<boolean> {
    try {
      await this.books.create(doc);
      if (await this.engine.isFerretDb()) this.searchIndex.put(doc);
      return true;
    } catch (err) {
      if ((err as { code?: number }).code === DUPLICATE_KEY) return false;
      throw err;
    }
  }
}

/** The book with the users' rating and tag counts changed; a tag whose count falls to 0 is dropped. */
export function applyDelta(doc: BookDocument, delta: AggregateDelta): BookDocument {
  const userTags = { ...(doc.user_tags ?? {}) };
  for (const [name, change] of delta.tags) {
    const key = tagKey(name);
    const count = (userTags[key] ?? 0) + change;
    if (count > 0) userTags[key] = count;
    else delete userTags[key];
  }
  const rating = doc.user_rating ?? { num: 0, sum: 0 };
  return withTagKeys({
    ...doc,
    user_rating: { num: rating.num + delta.raters, sum: rating.sum + delta.ratingSum },
    user_tags: userTags,
  });
}

/** `tag_keys` (what `tag=` matches) from the catalogue's tags and the users' tags in use. */
function withTagKeys(doc: BookDocument): BookDocument {
  const names = [...(doc.base_tags ?? []).map((t) => t.name), ...Object.keys(doc.user_tags ?? {}).map(tagFromKey)];
  return { ...doc, tag_keys: [...new Set(names.map(tagSearchKey))] };
}

function dropUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

/** Equal as stored (key order aside), ignoring `rev`. */
function sameDocument(a: BookDocument, b: BookDocument): boolean {
  const canonical = (doc: BookDocument) =>
    JSON.stringify({ ...doc, rev: 0 }, (_, x) => (x && typeof x === 'object' && !Array.isArray(x) ? Object.fromEntries(Object.entries(x).sort()) : x));
  return canonical(a) === canonical(b);
}
