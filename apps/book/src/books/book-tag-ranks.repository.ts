import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { pageOfSegments, SearchPage, SearchWindow } from '@plaza/service-kit';
import { AnyBulkWriteOperation, Model } from 'mongoose';
import { BookDocument } from './book.schema';
import { bookTagRanks } from './book-search';
import { BookTagRankDocument, bookTagRankId } from './book-tag-rank.schema';

const DUPLICATE_KEY = 11000;

/** `book_tag_ranks` (see its schema): the order of `tag=` searches on MongoDB. */
@Injectable()
export class BookTagRanksRepository {
  constructor(@InjectModel(BookTagRankDocument.name) private readonly ranks: Model<BookTagRankDocument>) {}

  /** The books of a tag, most often given the tag first: a page of ids and the count up to the window's limit. */
  page(tagKey: string, window: SearchWindow): Promise<SearchPage> {
    const filter = { tag: tagKey, live: true };
    return pageOfSegments(
      [{ model: this.ranks as unknown as Model<never>, filter, sort: { rank: 1 }, idField: 'book_id' }],
      () => this.ranks.countDocuments(filter).limit(window.limit).exec(),
      window,
    );
  }

  /**
   * Brings the book's tag documents from `previous` to `next` (a write that stored `next`): only the
   * tags whose rank changed. Each write applies only over an older revision of the book, so writes
   * of several instances arriving in any order leave the newest.
   */
  async sync(previous: BookDocument | null, next: BookDocument): Promise<void> {
    // a book stored before search fields existed has no tag documents yet: all of them are written
    // (so re-importing a catalogue fills this collection)
    const before = previous?.search_rank ? bookTagRanks(previous) : new Map<string, string>();
    const after = bookTagRanks(next);
    if (!previous) return this.insertNew(next, after);
    const olderThanNext = { $lt: next.rev ?? 0 };
    const ops: AnyBulkWriteOperation<BookTagRankDocument>[] = [];
    for (const [tag, rank] of after) {
      if (before.get(tag) === rank) continue;
      ops.push({
        updateOne: {
          filter: { _id: bookTagRankId(next._id, tag), rev: olderThanNext },
          update: { $set: { book_id: next._id, tag, rank, live: true, rev: next.rev ?? 0 } },
          upsert: true,
        },
      });
    }
    for (const tag of before.keys()) {
      if (after.has(tag)) continue;
      ops.push({ updateOne: { filter: { _id: bookTagRankId(next._id, tag), rev: olderThanNext }, update: { $set: { live: false, rev: next.rev ?? 0 } } } });
    }
    await this.write(ops, true);
  }

  /**
   * Brings the book's tag documents to what the stored book says, whatever they were: the repair
   * of a `book:` journal target (a write that died between the book and `sync` left them stale),
   * the re-import of an unchanged book, and `npm run reconcile`. Reads the book's documents (the
   * `book_id` index) and writes only those that differ, each only over an older or equal revision,
   * so it is idempotent and never undoes a newer write. Returns how many differed.
   */
  async resync(book: BookDocument, apply = true): Promise<number> {
    const want = bookTagRanks(book);
    const rev = book.rev ?? 0;
    const have = await this.ranks.find({ book_id: book._id }).lean<BookTagRankDocument[]>().exec();
    const ops: AnyBulkWriteOperation<BookTagRankDocument>[] = [];
    const seen = new Set(have.map((d) => d.tag));
    for (const doc of have) {
      if (doc.rev > rev) continue; // a newer write of the book has its own
      const rank = want.get(doc.tag);
      if (rank === undefined ? !doc.live : doc.live && doc.rank === rank) continue;
      const update = rank === undefined ? { live: false, rev } : { rank, live: true, rev };
      ops.push({ updateOne: { filter: { _id: doc._id, rev: { $lte: rev } }, update: { $set: update } } });
    }
    for (const [tag, rank] of want) {
      if (seen.has(tag)) continue;
      ops.push({
        updateOne: {
          filter: { _id: bookTagRankId(book._id, tag), rev: { $lte: rev } },
          update: { $set: { book_id: book._id, tag, rank, live: true, rev } },
          upsert: true,
        },
      });
    }
    if (apply) await this.write(ops, true);
    return ops.length;
  }

  /** A new book's tags: plain inserts (cheap on every engine); one already there is newer or the same. */
  private async insertNew(book: BookDocument, ranks: Map<string, string>): Promise<void> {
    const docs = [...ranks].map(([tag, rank]) => ({ _id: bookTagRankId(book._id, tag), book_id: book._id, tag, rank, live: true, rev: book.rev ?? 0 }));
    if (docs.length === 0) return;
    try {
      await this.ranks.insertMany(docs, { ordered: false, lean: true });
    } catch (err) {
      const failed = (err as { writeErrors?: Array<{ code?: number }> | { code?: number } }).writeErrors;
      const errors = Array.isArray(failed) ? failed : failed ? [failed] : [];
      if (errors.length === 0 || errors.some((e) => e.code !== DUPLICATE_KEY)) throw err;
    }
  }

  /**
   * An upsert whose filter did not match an existing document (a newer revision there, or a
   * concurrent first insert) fails with E11000: tried once more it updates an older document or
   * fails again, which means a newer revision is stored, which is right.
   */
  private async write(ops: AnyBulkWriteOperation<BookTagRankDocument>[], retry: boolean): Promise<void> {
    if (ops.length === 0) return;
    try {
      await this.ranks.bulkWrite(ops, { ordered: false });
    } catch (err) {
      const failed = (err as { writeErrors?: Array<{ code?: number; index: number }> }).writeErrors;
      if (!failed || failed.some((e) => e.code !== DUPLICATE_KEY)) throw err;
      if (retry) await this.write(failed.map((e) => ops[e.index]), false);
    }
  }
}
