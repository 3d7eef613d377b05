import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Drift } from '@plaza/contracts';
import { KeyedMutex } from '@plaza/platform';
import { AnyBulkWriteOperation, Model } from 'mongoose';
import type { UserTagCount } from '../books/local-engine';
import { CollectionDocument } from './collection.schema';
import { UserTagCountDocument, userTagCountId } from './user-tag-count.schema';
import { STABLE_MS } from '../reviews/book-user-aggregates';

const DUPLICATE_KEY = 11000;

type EntryTags = Pick<CollectionDocument, 'user_id' | 'tags' | 'private'>;

/** A user's counts by tag: `all` entries and `public` ones. */
export type TagCounts = Record<string, { all: number; public: number }>;

/** `user_tag_counts` (see its schema): a user's tags on MongoDB. */
@Injectable()
export class UserTagCountsRepository {
  /**
   * One change of a user's counts at a time in this instance: not needed on MongoDB (`$inc`), but
   * this branch also runs against FerretDB in the tests (DATABASE_MODE=mongodb), whose `$inc` is not atomic.
   */
  private readonly lock = new KeyedMutex();

  constructor(
    @InjectModel(UserTagCountDocument.name) private readonly counts: Model<UserTagCountDocument>,
    @InjectModel(CollectionDocument.name) private readonly collections?: Model<CollectionDocument>,
  ) {}

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

  /**
   * Brings the user's counts to what their entries say (the repair of a `user:` journal target and
   * of `npm run reconcile`). The counts move by `$inc` after each entry write, so a write that died
   * between the two left them off for good. As BookUserAggregates.correct: the drift is measured
   * twice, STABLE_MS apart, and corrected only when both agree (a write in flight elsewhere shows
   * as a drift that goes away); each count is then set only over the value read (a compare-and-swap:
   * an `$inc` landing meanwhile makes it fail, and a later sweep tries again). Returns the drift
   * corrected, or null when there was none.
   */
  async correct(userId: string): Promise<Drift | null> {
    const first = await this.measure(userId);
    if (!first) return null;
    await new Promise((resolve) => setTimeout(resolve, STABLE_MS));
    return this.lock.run(userId, async () => {
      const second = await this.measure(userId);
      if (!second) return null;
      if (JSON.stringify(second) !== JSON.stringify(first)) throw new Error(`the tag counts of user ${userId} changed while they were checked`);
      const ops: AnyBulkWriteOperation<UserTagCountDocument>[] = [];
      for (const tag of new Set([...Object.keys(second.stored), ...Object.keys(second.source)])) {
        const stored = second.stored[tag];
        const source = second.source[tag] ?? { all: 0, public: 0 };
        if (stored && stored.all === source.all && stored.public === source.public) continue;
        ops.push({
          updateOne: {
            filter: stored ? { _id: userTagCountId(userId, tag), all: stored.all, public: stored.public } : { _id: userTagCountId(userId, tag) },
            update: { $set: { all: source.all, public: source.public }, $setOnInsert: { user_id: userId, tag } },
            upsert: !stored,
          },
        });
      }
      const result = await this.counts.bulkWrite(ops, { ordered: false });
      if (result.matchedCount + result.upsertedCount < ops.length) throw new Error(`the tag counts of user ${userId} changed while they were corrected`);
      return { kind: 'book.user_tag_counts', id: userId, stored: second.stored, source: second.source };
    });
  }

  /** Every user whose stored counts differ from their entries (reconcile: one pass over each collection). */
  async allDrifts(): Promise<{ users: number; drifts: Drift[] }> {
    const source = new Map<string, TagCounts>();
    for await (const entry of this.entries().find({}, { user_id: 1, tags: 1, private: 1 }).lean<EntryTags[]>().cursor()) addEntry(source, entry);
    const stored = new Map<string, TagCounts>();
    for await (const doc of this.counts.find({}).lean<UserTagCountDocument[]>().cursor()) addCount(stored, doc);
    const drifts: Drift[] = [];
    const users = new Set([...source.keys(), ...stored.keys()]);
    for (const userId of users) {
      const s = stored.get(userId) ?? {};
      const t = source.get(userId) ?? {};
      if (!sameCounts(s, t)) drifts.push({ kind: 'book.user_tag_counts', id: userId, stored: s, source: t });
    }
    return { users: users.size, drifts };
  }

  /** The user's counts compared with their entries now, on their own (reconcile's confirmation): the drift, or null. */
  async drift(userId: string): Promise<Drift | null> {
    const m = await this.measure(userId);
    return m ? { kind: 'book.user_tag_counts', id: userId, stored: m.stored, source: m.source } : null;
  }

  /** The user's counts as stored and from their entries (the `user_id` indexes), or null when they agree. */
  private async measure(userId: string): Promise<{ stored: TagCounts; source: TagCounts } | null> {
    const [docs, entries] = await Promise.all([
      this.counts.find({ user_id: userId }).lean<UserTagCountDocument[]>().exec(),
      this.entries().find({ user_id: userId }, { user_id: 1, tags: 1, private: 1 }).lean<EntryTags[]>().exec(),
    ]);
    const stored = new Map<string, TagCounts>();
    docs.forEach((d) => addCount(stored, d));
    const source = new Map<string, TagCounts>();
    entries.forEach((e) => addEntry(source, e));
    const s = stored.get(userId) ?? {};
    const t = source.get(userId) ?? {};
    return sameCounts(s, t) ? null : { stored: s, source: t };
  }

  private entries(): Model<CollectionDocument> {
    if (!this.collections) throw new Error('UserTagCountsRepository was built without the collections model');
    return this.collections;
  }
}

function addEntry(byUser: Map<string, TagCounts>, entry: EntryTags): void {
  let counts = byUser.get(entry.user_id);
  if (!counts) byUser.set(entry.user_id, (counts = {}));
  for (const tag of new Set(entry.tags ?? [])) {
    const c = (counts[tag] ??= { all: 0, public: 0 });
    c.all += 1;
    if (!entry.private) c.public += 1;
  }
}

/** A stored count of 0 (a tag the user no longer uses) is the same as none. */
function addCount(byUser: Map<string, TagCounts>, doc: UserTagCountDocument): void {
  let counts = byUser.get(doc.user_id);
  if (!counts) byUser.set(doc.user_id, (counts = {}));
  counts[doc.tag] = { all: doc.all ?? 0, public: doc.public ?? 0 };
}

export function sameCounts(stored: TagCounts, source: TagCounts): boolean {
  const nonZero = (c: TagCounts) => Object.keys(c).filter((t) => c[t].all !== 0 || c[t].public !== 0);
  const tags = new Set([...nonZero(stored), ...nonZero(source)]);
  for (const tag of tags) {
    const a = stored[tag] ?? { all: 0, public: 0 };
    const b = source[tag] ?? { all: 0, public: 0 };
    if (a.all !== b.all || a.public !== b.public) return false;
  }
  return true;
}
