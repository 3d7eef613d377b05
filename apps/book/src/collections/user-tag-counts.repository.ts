import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { KeyedMutex } from '@plaza/platform';
import { AnyBulkWriteOperation, Model } from 'mongoose';
import type { UserTagCount } from '../books/local-engine';
import { CollectionDocument } from './collection.schema';
import { UserTagCountDocument, userTagCountId } from './user-tag-count.schema';

const DUPLICATE_KEY = 11000;

type EntryTags = Pick<CollectionDocument, 'user_id' | 'tags' | 'private'>;

/** `user_tag_counts` (see its schema): a user's tags on MongoDB. */
@Injectable()
export class UserTagCountsRepository {
  /**
   * One change of a user's counts at a time in this instance: not needed on MongoDB (`$inc`), but
   * this branch also runs against FerretDB in the tests (DATABASE_MODE=mongodb), whose `$inc` is not atomic.
   */
  private readonly lock = new KeyedMutex();

  constructor(@InjectModel(UserTagCountDocument.name) private readonly counts: Model<UserTagCountDocument>) {}

  /** A page of a user's tags, the most used first, then by name, and how many there are. */
  async page(userId: string, includePrivate: boolean, start: number, count: number): Promise<{ total: number; items: UserTagCount[] }> {
    const field = includePrivate ? 'all' : 'public';
    const filter = { user_id: userId, [field]: { $gt: 0 } };
    const [total, docs] = await Promise.all([
      this.counts.countDocuments(filter).exec(),
      count === 0
        ? Promise.resolve([])
        : this.counts.find(filter, { tag: 1, [field]: 1 }).sort({ [field]: -1, tag: 1 }).skip(start).limit(count).lean<UserTagCountDocument[]>().exec(),
    ]);
    return { total, items: docs.map((d) => ({ title: d.tag, count: d[field] })) };
  }

  /** Moves the counts from what the entry was (`before`) to what it is (`after`); either may be absent. */
  async apply(before: EntryTags | undefined, after: EntryTags | undefined): Promise<void> {
    const userId = (after ?? before)?.user_id;
    if (!userId) return;
    const changes = new Map<string, { all: number; public: number }>();
    const add = (entry: EntryTags | undefined, sign: 1 | -1) => {
      for (const tag of new Set(entry?.tags ?? [])) {
        const change = changes.get(tag) ?? { all: 0, public: 0 };
        change.all += sign;
        if (!entry?.private) change.public += sign;
        changes.set(tag, change);
      }
    };
    add(before, -1);
    add(after, 1);
    let ops: AnyBulkWriteOperation<UserTagCountDocument>[] = [...changes]
      .filter(([, change]) => change.all !== 0 || change.public !== 0)
      .map(([tag, change]) => ({
        updateOne: {
          filter: { _id: userTagCountId(userId, tag) },
          update: { $inc: { all: change.all, public: change.public }, $setOnInsert: { user_id: userId, tag } },
          upsert: true,
        },
      }));
    if (ops.length === 0) return;
    await this.lock.run(userId, async () => {
      for (let attempt = 0; ; attempt++) {
        try {
          await this.counts.bulkWrite(ops, { ordered: false });
          return;
        } catch (err) {
          // two first upserts of one `_id` at once (MongoDB retries those itself; FerretDB does not):
          // the failed ones did not apply, so they are applied again
          const failed = (err as { writeErrors?: Array<{ code?: number; index: number }> }).writeErrors;
          if (!failed || failed.some((e) => e.code !== DUPLICATE_KEY) || attempt >= 3) throw err;
          ops = failed.map((e) => ops[e.index]);
        }
      }
    });
  }
}
