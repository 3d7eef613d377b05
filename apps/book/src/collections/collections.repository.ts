import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { CollectionStatus } from '@plaza/contracts';
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
export class CollectionsRepository {
  constructor(@InjectModel(CollectionDocument.name) private readonly collections: Model<CollectionDocument>) {}

  async find(userId: string, bookId: string): Promise<CollectionDocument | null> {
    return this.collections.findById(collectionKey(userId, bookId)).lean<CollectionDocument>().exec();
  }

  /** Inserts a new entry; false when the user already has one for the book (the unique `_id` decides). */
  async insert(doc: CollectionDocument): Promise<boolean> {
    try {
      await this.collections.create(doc);
      return true;
    } catch (err) {
      if ((err as { code?: number }).code === DUPLICATE_KEY) return false;
      throw err;
    }
  }

  async replace(doc: CollectionDocument): Promise<void> {
    await this.collections.replaceOne({ _id: doc._id }, doc).exec();
  }

  async delete(userId: string, bookId: string): Promise<boolean> {
    const result = await this.collections.deleteOne({ _id: collectionKey(userId, bookId) }).exec();
    return result.deletedCount > 0;
  }

  /** A user's entries, newest change first. Every filter value is a validated primitive. */
  async listByUser(userId: string, filter: CollectionFilter, start: number, count: number): Promise<{ total: number; items: CollectionDocument[] }> {
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
    const query: Record<string, unknown> = { user_id: userId };
    if (!includePrivate) query.private = false;
    const docs = await this.collections.find(query, { tags: 1 }).lean<Array<Pick<CollectionDocument, 'tags'>>>().exec();
    return docs.map((d) => d.tags ?? []);
  }
}
