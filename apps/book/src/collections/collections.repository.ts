import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { DatabaseEngine, driverCollection, GroupedWrites } from '@plaza/service-kit';
import { Model } from 'mongoose';
import { BookLocalEngine, CollectionFilter, UserTagCount } from '../books/local-engine';
import { CollectionDocument, collectionKey } from './collection.schema';
import { UserTagCountsRepository } from './user-tag-counts.repository';

export type { CollectionFilter } from '../books/local-engine';

const DUPLICATE_KEY = 11000;

/**
 * The users' collection entries. One per user and book (`_id` `<user>:<book>`, so creation is an
 * atomic insert). A replace or delete applies only to the version it was computed from (`rev`,
 * DatabaseEngine.versionFilter): on MongoDB a compare-and-swap, so of two instances changing one
 * entry exactly one wins and the book's aggregates move once per change; on the local engine the
 * service's per-entry lock is the guard.
 *
 * A user's list and tags come from the database's indexes on MongoDB (`user_tag_counts` for the
 * tags), and from BookLocalEngine's in-memory entries on the local engine.
 */
@Injectable()
export class CollectionsRepository {
  /** The entries' writes, sent together on the local engine when they come at once (grouped-writes.ts). */
  private readonly writes: GroupedWrites<CollectionDocument>;

  constructor(
    @InjectModel(CollectionDocument.name) private readonly collections: Model<CollectionDocument>,
    private readonly engine: DatabaseEngine,
    private readonly tagCounts: UserTagCountsRepository,
    private readonly local: BookLocalEngine,
  ) {
    this.writes = new GroupedWrites(engine, driverCollection(collections));
  }

  /** Whether `entry` is the one the local engine holds now (not a copy read from the database, nor an older version). */
  isHeld(entry: CollectionDocument): boolean {
    return this.local.holdsEntry(entry);
  }

  /**
   * The user's entry for the book, as a write starts from it: the `_id` on MongoDB, the entry held
   * in memory on the local engine (exact there: this repository is the collection's only writer,
   * and a write whose command failed reads its entry back, see `command`).
   */
  async find(userId: string, bookId: string): Promise<CollectionDocument | null> {
    return (await this.ofUserForBooks(userId, [bookId])).get(bookId) ?? null;
  }

  /**
   * One user's entries for some books, by book id: what a book read or a page of search results
   * shows as the caller's own entry. `_id` lookups on MongoDB; the in-memory entries on the local
   * engine, so a read by a signed-in user asks FerretDB nothing.
   */
  async ofUserForBooks(userId: string, bookIds: string[]): Promise<Map<string, CollectionDocument>> {
    const keys = [...new Set(bookIds)].map((bookId) => collectionKey(userId, bookId));
    if (keys.length === 0) return new Map();
    const entries = await this.engine.run('book.collections.by-books', {
      // one key as an equality: FerretDB scans for any `$in` (docs/ENGINES.md)
      mongodb: () => this.collections.find(keys.length === 1 ? { _id: keys[0] } : { _id: { $in: keys } }).limit(keys.length).lean<CollectionDocument[]>().exec(),
      local: () => this.local.entries(keys),
    });
    return new Map(entries.map((entry) => [entry.book_id, entry]));
  }

  /**
   * The key (`<user>:<book>`) of the entry whose public id is `id`, if any: the `id` index on
   * MongoDB, the in-memory entries on the local engine (FerretDB would scan for it).
   */
  keyWithId(id: number): Promise<string | undefined> {
    return this.engine.run('book.collections.by-id', {
      mongodb: async () => (await this.collections.findOne({ id }, { _id: 1 }).lean<Pick<CollectionDocument, '_id'>>().exec())?._id,
      local: () => this.local.entryKeyWithId(id),
    });
  }

  /** Inserts a new entry; false when the user already has one for the book (the unique `_id` decides). */
  async insert(doc: CollectionDocument): Promise<boolean> {
    const stored = { ...doc, rev: 0 };
    try {
      await this.command(stored._id, () => this.writes.insertOne(stored));
    } catch (err) {
      if ((err as { code?: number }).code === DUPLICATE_KEY) return false;
      throw err;
    }
    await this.written(undefined, stored);
    return true;
  }

  /** Replaces `previous` (as read) by `next`; false when the entry changed or vanished since it was read. */
  async replace(previous: CollectionDocument, next: CollectionDocument): Promise<boolean> {
    const stored = { ...next, rev: (previous.rev ?? 0) + 1 };
    const filter = await this.engine.versionFilter('book.collections.replace', previous._id, previous.rev);
    const result = await this.command(previous._id, () => this.writes.replaceOne(filter, stored));
    if (result.matchedCount !== 1) return false;
    await this.written(previous, stored);
    return true;
  }

  /** Deletes `previous` (as read); false when the entry changed or vanished since it was read. */
  async delete(previous: CollectionDocument): Promise<boolean> {
    const filter = await this.engine.versionFilter('book.collections.delete', previous._id, previous.rev);
    const result = await this.command(previous._id, () => this.writes.deleteOne(filter));
    if (result.deletedCount !== 1) return false;
    await this.written(previous, undefined);
    return true;
  }

  /** What follows a stored change: the user's tag counts on MongoDB, the in-memory entries on the local engine. */
  private written(before: CollectionDocument | undefined, after: CollectionDocument | undefined): Promise<void> {
    return this.engine.run('book.collections.upkeep', {
      mongodb: () => this.tagCounts.apply(before, after),
      local: () => (after ? this.local.entryWritten(after) : before && this.local.entryRemoved(before._id)),
    });
  }

  /**
   * Runs a write command of the entry `key`. When it fails (it may have been applied all the same,
   * or the entry held in memory may be behind the database: a duplicate key), the local engine's
   * copy of the entry is read back from the database before the error goes on.
   */
  private async command<T>(key: string, write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (err) {
      if (await this.engine.isLocal()) {
        const stored = await driverCollection(this.collections).findOne({ _id: key }).catch(() => undefined);
        if (stored === null) this.local.entryRemoved(key);
        else if (stored) this.local.entryWritten(stored);
      }
      throw err;
    }
  }

  /** A user's entries, newest change first, a page at a time. Every filter value is a validated primitive. */
  async listByUser(userId: string, filter: CollectionFilter, start: number, count: number): Promise<{ total: number; items: CollectionDocument[] }> {
    return this.engine.run('book.collections.list', {
      mongodb: () => this.listFromIndex(userId, filter, start, count),
      local: () => this.local.listByUser(userId, filter, start, count),
    });
  }

  /** A page of a user's tags with how many entries carry each (public entries only, unless the owner asks), the most used first. */
  async userTags(userId: string, includePrivate: boolean, start: number, count: number): Promise<{ total: number; items: UserTagCount[] }> {
    return this.engine.run('book.collections.tags', {
      mongodb: () => this.tagCounts.page(userId, includePrivate, start, count),
      local: () => this.local.userTags(userId, includePrivate, start, count),
    });
  }

  private async listFromIndex(userId: string, filter: CollectionFilter, start: number, count: number): Promise<{ total: number; items: CollectionDocument[] }> {
    const query: Record<string, unknown> = { user_id: userId };
    if (!filter.includePrivate) query.private = false;
    if (filter.status) query.status = filter.status;
    if (filter.tag !== undefined) query.tags = filter.tag;
    if (filter.rating !== undefined) query.rating = filter.rating;
    if (filter.from || filter.to) {
      query.updated = { ...(filter.from ? { $gte: filter.from } : {}), ...(filter.to ? { $lte: filter.to } : {}) };
    }
    const [total, items] = await Promise.all([
      this.collections.countDocuments(query).exec(),
      count === 0
        ? Promise.resolve([])
        : this.collections.find(query).sort({ updated: -1, id: -1 }).skip(start).limit(count).lean<CollectionDocument[]>().exec(),
    ]);
    return { total, items };
  }
}
