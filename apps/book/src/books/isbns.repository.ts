import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model } from 'mongoose';
import { IsbnDocument, normalizeIsbn } from './isbn.schema';

/** The ISBN index: each ISBN of a book points at its id. */
@Injectable()
export class IsbnsRepository {
  constructor(@InjectModel(IsbnDocument.name) private readonly isbns: Model<IsbnDocument>) {}

  async bookIdFor(isbn: string): Promise<string | undefined> {
    const key = normalizeIsbn(isbn);
    if (!key) return undefined;
    const entry = await this.isbns.findById(key).lean<IsbnDocument>().exec();
    return entry?.book_id;
  }

  /**
   * Points the book's current ISBNs at it and drops the ones it no longer has. `previous` are the
   * ISBNs the stored book had (none for a new book). Each current ISBN is read by `_id` and written
   * only when it does not point at the book yet, so a re-import writes nothing, and the re-import
   * of a book whose index a crash left behind (the book written, the index not) completes it.
   */
  async index(bookId: string, current: string[], previous: string[]): Promise<void> {
    const keep = new Set(current.map(normalizeIsbn).filter(Boolean));
    const had = new Set(previous.map(normalizeIsbn).filter(Boolean));
    const writes: Array<Promise<unknown>> = [];
    for (const isbn of keep) {
      writes.push((async () => {
        if ((await this.isbns.findById(isbn).lean<IsbnDocument>().exec())?.book_id === bookId) return;
        await this.isbns.replaceOne({ _id: isbn }, { _id: isbn, book_id: bookId }, { upsert: true }).exec();
      })());
    }
    for (const old of had) {
      if (!keep.has(old)) writes.push(this.isbns.deleteOne({ _id: old, book_id: bookId }).exec());
    }
    await Promise.all(writes);
  }
}
