import { Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { CollectionStatus } from '@plaza/contracts';
import { DatabaseEngine, LocalGroupedMirror } from '@plaza/service-kit';
import { Model } from 'mongoose';
import { CollectionDocument, collectionKey } from './collection.schema';

export interface CollectionFilter {
  status?: CollectionStatus;
  tag?: string;
  from?: Date;
  to?: Date;
  rating?: number;
  /** Only the owner sees private entries. */
  includePrivate: boolean;
}

const DUPLICATE_KEY = 11000;

@Injectable()
export class CollectionsRepository implements OnApplicationBootstrap {
  /** The local engine's per-user view of the collection (see LocalGroupedMirror); unused on MongoDB. */
  private readonly byUser = new LocalGroupedMirror<CollectionDocument>((entry) => entry.user_id);

  constructor(
    @InjectModel(CollectionDocument.name) private readonly collections: Model<CollectionDocument>,
    private readonly engine: DatabaseEngine,
  ) {}

  /** On the local engine, a user's entries from memory (loaded on first use); undefined on MongoDB. */
  private async localEntriesOf(userId: string): Promise<CollectionDocument[] | undefined> {
    if (!(await this.engine.isFerretDb())) return undefined;
    await this.byUser.ready(() => this.allEntries());
    return this.byUser.group(userId);
  }

  private async *allEntries(): AsyncIterable<CollectionDocument> {
    yield* this.collections.find({}).lean<CollectionDocument[]>().cursor();
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.byUser.preload(this.engine, () => this.allEntries());
  }

  async find(userId: string, bookId: string): Promise<CollectionDocument | null> {
    return this.collections.findById(collectionKey(userId, bookId)).lean<CollectionDocument>().exec();
  }

  /** Inserts a new entry; false when the user already has one for the book (the unique `_id` decides). */
  async insert(doc: CollectionDocument): Promise<boolean> {
    try {
      const created = await this.collections.create(doc);
      if (await this.engine.isFerretDb()) this.byUser.put(created.toObject<CollectionDocument>());
      return true;
    } catch (err) {
      if ((err as { code?: number }).code === DUPLICATE_KEY) return false;
      throw err;
    }
  }

  async replace(doc: CollectionDocument): Promise<void> {
    await this.collections.replaceOne({ _id: doc._id }, doc).exec();
    if (await this.engine.isFerretDb()) this.byUser.put(doc);
  }

  async delete(userId: string, bookId: string): Promise<boolean> {
    const result = await this.collections.deleteOne({ _id: collectionKey(userId, bookId) }).exec();
    if (await this.engine.isFerretDb()) this.byUser.remove(collectionKey(userId, bookId));
    return result.deletedCount > 0;
  }

  /** A user's entries, newest change first. Every filter value is a validated primitive. */
  async listByUser(userId: string, filter: CollectionFilter, start: number, count: number): Promise<{ total: number; items: CollectionDocument[] }> {
    const local = await this.localEntriesOf(userId);
    if (local) {
      const matching = local.filter((entry) => matchesFilter(entry, filter)).sort(newestChangeFirst);
      return { total: matching.length, items: matching.slice(start, start + count) };
    }
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

  /** The tags of a user's entries (private ones only for the owner). */
  async tagsOfUser(userId: string, includePrivate: boolean): Promise<string[][]> {
    const local = await this.localEntriesOf(userId);
    if (local) return local.filter((entry) => includePrivate || !entry.private).map((entry) => entry.tags ?? []);
    const query: Record<string, unknown> = { user_id: userId };
    if (!includePrivate) query.private = false;
    const docs = await this.collections.find(query, { tags: 1 }).lean<Array<Pick<CollectionDocument, 'tags'>>>().exec();
    return docs.map((d) => d.tags ?? []);
  }
}

/** The filter of `listByUser`, as the database applies it, for entries held in memory. */
export function matchesFilter(entry: CollectionDocument, filter: CollectionFilter): boolean {
  if (!filter.includePrivate && entry.private) return false;
  if (filter.status && entry.status !== filter.status) return false;
  if (filter.tag !== undefined && !(entry.tags ?? []).includes(filter.tag)) return false;
  if (filter.rating !== undefined && entry.rating !== filter.rating) return false;
  const updated = new Date(entry.updated).getTime();
  if (filter.from && updated < filter.from.getTime()) return false;
  if (filter.to && updated > filter.to.getTime()) return false;
  return true;
}

/** `{updated: -1, id: -1}`, the order of the database query. */
export function newestChangeFirst(a: CollectionDocument, b: CollectionDocument): number {
  return new Date(b.updated).getTime() - new Date(a.updated).getTime() || b.id - a.id;
}
