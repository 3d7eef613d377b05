import { Inject, Injectable } from '@nestjs/common';
import { idsToReserve, ImportBatch, ImportBatchResult, importedPicture, isPrivate, parseTags, toCollectionStatus, UserRecord } from '@plaza/contracts';
import { APP_CONFIG, CacheInvalidator, ImportKindHandler, KeyedMutex, LOGGER, Logger, importedUser, importTime, runImportBatch, UsersDirectory } from '@plaza/platform';
import { Sequences } from '@plaza/service-kit';
import { AnnotationDocument, CHAPTER_PAGE_ORDER, StoredPhoto } from '../annotations/annotation.schema';
import { PictureStore } from '@plaza/pictures';
import { AnnotationsRepository } from '../annotations/annotations.repository';
import { BooksRepository } from '../books/books.repository';
import { CollectionDocument, collectionKey } from '../collections/collection.schema';
import { CollectionsRepository } from '../collections/collections.repository';
import { BookConfig } from '../config/book.config';
import { BookAggregateJournal } from '../reviews/book-aggregate-journal';
import { ReviewDocument } from '../reviews/review.schema';
import { ReviewsRepository } from '../reviews/reviews.repository';
import { AnnotationImportRecord, BookReviewImportRecord, CollectionImportRecord } from './user-content.records';

/** The kinds of users' book content (docs/api/import.md). */
export const USER_CONTENT_KINDS: ReadonlySet<string> = new Set(['book_review', 'collection', 'annotation']);

/** Each sequenced kind of the book service and the sequence its ids come from through the API. */
const SEQUENCE_OF_KIND = [['collection', 'collection'], ['book_review', 'review'], ['annotation', 'annotation']] as const;
/** Books whose aggregates are corrected at once after a batch (each correction waits BookUserAggregates' stability interval). */
const CORRECTIONS_AT_ONCE = 16;
const MAX_ATTEMPTS = 5;

function userRef(record: Record<string, unknown>): string | undefined {
  for (const field of ['author_id', 'user_id']) if (typeof record[field] === 'string') return record[field];
  const ref = (record.author ?? record.user) as { id?: unknown; uid?: unknown } | undefined;
  if (ref && typeof ref === 'object') return typeof ref.id === 'string' ? ref.id : typeof ref.uid === 'string' ? ref.uid : undefined;
  return undefined;
}

/**
 * Users' collection entries, reviews and annotations from an import (docs/api/book.md, "Import of
 * users' content"), upserted by id through the repositories the API writes with, so a user's
 * lists, tag counts and the local engine's read models follow. A collection record's id names one
 * entry (a user and a book) for good: a record whose id is another entry's, or for a user and book
 * whose entry has another id, fails its line and stores nothing.
 *
 * A book's users' rating and tags are not moved by differences here: after the batch every book
 * it touched is corrected from its entries and reviews (BookUserAggregates.correct, the repair the
 * journal's sweep and `npm run reconcile` use). The whole batch, corrections included, runs under
 * one entry of the book aggregates' journal naming every book and user its lines may change (a
 * review moved to another book names both), and each record's write under one of its own, so a
 * crash anywhere in it leaves an entry that the sweep completes at the next start: the books and
 * users are right after an import, after the same import again, and after a crash midway. Id
 * sequences are moved past the imported ids.
 */
@Injectable()
export class UserContentImporter {
  private readonly lock = new KeyedMutex();

  constructor(
    @Inject(APP_CONFIG) private readonly config: BookConfig,
    @Inject(LOGGER) private readonly logger: Logger,
    private readonly sequences: Sequences,
    private readonly books: BooksRepository,
    private readonly collections: CollectionsRepository,
    private readonly reviews: ReviewsRepository,
    private readonly annotations: AnnotationsRepository,
    private readonly journal: BookAggregateJournal,
    private readonly users: UsersDirectory,
    private readonly cache: CacheInvalidator,
    private readonly pictures: PictureStore,
  ) {}

  /**
   * Moves the id sequences past the ids the batch's file carries (`idsUpTo`) and the batch's own,
   * before any of its records is written: an entry, review or annotation created through the API
   * from then on, even between two batches of one file, never takes an id the file will write.
   */
  async reserveIds(batch: ImportBatch): Promise<void> {
    const reserve = idsToReserve(batch);
    for (const [kind, sequence] of SEQUENCE_OF_KIND) if (reserve[kind]) await this.sequences.atLeast(sequence, reserve[kind]);
  }

  /** One batch (its ids reserved first); `others` handle the catalogue kinds a batch may hold beside these. */
  async importBatch(batch: ImportBatch, others: Record<string, ImportKindHandler<object>>): Promise<ImportBatchResult> {
    const users = await this.resolveUsers(batch);
    const { bookIds, userIds } = await this.targetsOf(batch, users);
    return this.journal.runBatch(bookIds, userIds, async () => {
      const touched = new Set<string>();
      const handlers: Record<string, ImportKindHandler<object>> = {
        ...others,
        collection: { record: CollectionImportRecord, upsert: (r) => this.collection(r as CollectionImportRecord, users, touched) },
        book_review: { record: BookReviewImportRecord, upsert: (r) => this.review(r as BookReviewImportRecord, users, touched) },
        annotation: { record: AnnotationImportRecord, upsert: (r) => this.annotation(r as AnnotationImportRecord, users) },
      };
      const result = await runImportBatch(batch, handlers, 8);
      await this.correct([...touched]);
      this.cache.areas('book');
      return result;
    });
  }

  /**
   * The books and users a batch's lines may leave off until its corrections: each entry's and
   * review's book, the book a review is moved from (read by id), each entry's user.
   */
  private async targetsOf(batch: ImportBatch, users: Map<string, UserRecord>): Promise<{ bookIds: string[]; userIds: string[] }> {
    const bookIds: string[] = [];
    const userIds: string[] = [];
    const reviewIds: number[] = [];
    for (const { kind, record } of batch.lines) {
      if (kind !== 'collection' && kind !== 'book_review') continue;
      if (typeof record.book_id === 'string') bookIds.push(record.book_id);
      if (kind === 'book_review' && /^[0-9]{1,15}$/.test(String(record.id))) reviewIds.push(Number(record.id));
      const user = kind === 'collection' ? users.get(userRef(record) ?? '') : undefined;
      if (user) userIds.push(user.id);
    }
    for (let i = 0; i < reviewIds.length; i += 8) {
      const previous = await Promise.all(reviewIds.slice(i, i + 8).map((id) => this.reviews.byId(id)));
      for (const review of previous) if (review) bookIds.push(review.book_id);
    }
    return { bookIds, userIds };
  }

  private async collection(r: CollectionImportRecord, users: Map<string, UserRecord>, touched: Set<string>): Promise<void> {
    const user = this.user(users, userRef(r as never), 'user');
    await this.requireBook(r.book_id);
    const updated = this.time(r.updated, 'updated');
    const entry: CollectionDocument = {
      _id: collectionKey(user.id, r.book_id),
      id: Number(r.id),
      user_id: user.id,
      book_id: r.book_id,
      status: toCollectionStatus(r.status),
      tags: parseTags(r.tags),
      comment: r.comment ?? '',
      ...(r.rating ? { rating: r.rating } : {}),
      private: r.private ?? isPrivate(r.privacy),
      created: r.created === undefined ? updated : this.time(r.created, 'created'),
      updated,
    };
    // corrected after the batch even if this line fails midway
    touched.add(r.book_id);
    // the id, then the entry: two lines of the batch claiming one id (or one entry) take turns
    await this.lock.run(`collection-id:${entry.id}`, () => this.lock.run(entry._id, async () => {
      const holder = await this.collections.keyWithId(entry.id);
      if (holder !== undefined && holder !== entry._id) {
        const [holderUser, holderBook] = holder.split(':');
        throw new Error(`id ${entry.id} is already the id of another collection entry (user ${holderUser}, book ${holderBook}); ids never collide`);
      }
      const existing = await this.collections.find(user.id, r.book_id);
      if (existing && existing.id !== entry.id) throw new Error(differentId(user.id, r.book_id, existing.id));
      await this.journal.run(r.book_id, async () => {
        for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
          const previous = await this.collections.find(user.id, r.book_id);
          if (!previous) {
            if (await this.collections.insert(entry)) return;
            continue;
          }
          // the user wrote an entry through the API meanwhile: left as it is (nothing was written;
          // the journal entry stays and the sweep finds nothing to repair)
          if (previous.id !== entry.id) throw new Error(differentId(user.id, r.book_id, previous.id));
          const { rev: _rev, ...stored } = previous;
          if (JSON.stringify(normalised(stored)) === JSON.stringify(normalised(entry))) return;
          if (await this.collections.replace(previous, entry)) return;
        }
        throw new Error(`collection entry ${entry._id} kept changing`);
      }, user.id);
    }));
  }

  private async review(r: BookReviewImportRecord, users: Map<string, UserRecord>, touched: Set<string>): Promise<void> {
    const author = this.user(users, userRef(r as never), 'author');
    await this.requireBook(r.book_id);
    const published = this.time(r.published, 'published');
    const doc: ReviewDocument = {
      _id: Number(r.id),
      book_id: r.book_id,
      author_id: author.id,
      title: r.title.trim(),
      content: r.content,
      ...(r.rating ? { rating: r.rating } : {}),
      votes: r.votes ?? 0,
      useless: r.useless ?? 0,
      comments: r.comments ?? 0,
      published,
      updated: r.updated === undefined ? published : this.time(r.updated, 'updated'),
    };
    await this.lock.run(`review:${r.id}`, async () => {
      const previous = await this.reviews.byId(doc._id);
      // a review moved to another book: both books are corrected after the batch
      if (previous && previous.book_id !== doc.book_id) touched.add(previous.book_id);
      await this.journal.run(doc.book_id, () => (previous ? this.reviews.replace(doc) : this.reviews.insert(doc)));
    });
    touched.add(r.book_id);
  }

  private async annotation(r: AnnotationImportRecord, users: Map<string, UserRecord>): Promise<void> {
    const author = this.user(users, userRef(r as never), 'author');
    await this.requireBook(r.book_id);
    if (r.page_no !== undefined && r.chapter !== undefined && r.chapter !== '') throw new Error('page_no and chapter: give one of them');
    const created = this.time(r.created, 'created');
    const seq = Number(r.id);
    const photos = annotationPhotos(r.photos);
    const numbers = Object.keys(photos).map(Number);
    const doc: AnnotationDocument = {
      _id: r.id,
      seq,
      book_id: r.book_id,
      author_id: author.id,
      ...(r.page_no !== undefined ? { page_no: r.page_no, chapter: '', page_order: r.page_no } : { chapter: r.chapter ?? '', page_order: CHAPTER_PAGE_ORDER }),
      private: isPrivate(r.privacy),
      content: r.content,
      photos,
      last_photo: numbers.length ? Math.max(...numbers) : 0,
      comments_count: r.comments_count ?? 0,
      created,
      updated: r.updated === undefined ? created : this.time(r.updated, 'updated'),
    };
    await this.lock.run(`annotation:${r.id}`, async () => {
      const previous = await this.annotations.byId(r.id);
      const same = (a: Record<string, StoredPhoto>, b: Record<string, StoredPhoto>) => JSON.stringify(Object.values(a).map((p) => p.key).sort()) === JSON.stringify(Object.values(b).map((p) => p.key).sort());
      if (previous && Object.keys(previous.photos ?? {}).length > 0 && !same(previous.photos, photos)) throw new Error(`annotation ${r.id} has pictures uploaded through the API; it is not replaced`);
      if (previous) await this.annotations.replace(doc);
      else await this.annotations.insert(doc);
    });
    // an export archive's pictures, stored staged by the importer: accepted, seen as the annotation's privacy allows
    const keys = Object.values(photos).map((p) => p.key);
    if (keys.length > 0) await this.pictures.setVisibility(keys, !doc.private);
  }

  /** Each book's users' rating and tags from its entries and reviews, as the journal's repair does; retried while the book is being written. */
  private async correct(bookIds: string[]): Promise<void> {
    let next = 0;
    const worker = async () => {
      while (next < bookIds.length) {
        const bookId = bookIds[next++];
        for (let attempt = 1; ; attempt++) {
          try {
            await this.journal.exclusively(bookId, () => this.journal.aggregates.correct(bookId));
            break;
          } catch (err) {
            // the book changed while it was measured (a user's write): measure again; the sweep is the last resort
            if (attempt >= MAX_ATTEMPTS) {
              this.logger.warn({ book: bookId, err: (err as Error).message }, 'imported book aggregates not corrected; the journal sweep or npm run reconcile will');
              break;
            }
          }
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(CORRECTIONS_AT_ONCE, bookIds.length) }, worker));
  }

  private async requireBook(id: string): Promise<void> {
    if (!(await this.books.storedById(id))) throw new Error(`no book ${id}`);
  }

  private user(users: Map<string, UserRecord>, ref: string | undefined, role: string): UserRecord {
    return importedUser(users, ref, role);
  }

  private time(text: string, field: string): Date {
    return importTime(text, field, this.config.SERVICE_TIMEZONE);
  }

  private async resolveUsers(batch: ImportBatch): Promise<Map<string, UserRecord>> {
    const refs = batch.lines.filter((l) => USER_CONTENT_KINDS.has(l.kind)).map((l) => userRef(l.record)).filter((r): r is string => r !== undefined);
    if (refs.length === 0) return new Map();
    this.users.clear();
    return this.users.resolve(refs);
  }
}

function differentId(userId: string, bookId: string, id: number): string {
  return `user ${userId} already has collection entry ${id} for book ${bookId}; a record keeps its id, so it does not replace another`;
}

/** An entry's fields in a fixed order, dates as instants, for "the same record again changes nothing". */
function normalised(entry: Omit<CollectionDocument, 'rev'>): unknown[] {
  return [entry._id, entry.id, entry.user_id, entry.book_id, entry.status, entry.tags, entry.comment, entry.rating ?? null, entry.private,
    new Date(entry.created).getTime(), new Date(entry.updated).getTime()];
}

/** An annotation's pictures from an import: none, or those of an export archive the importer stored (docs/api/export.md). */
function annotationPhotos(input: unknown): Record<string, StoredPhoto> {
  if (input === undefined || input === null || (Array.isArray(input) && input.length === 0)) return {};
  if (typeof input !== 'object' || Array.isArray(input)) throw new Error('photos: annotation pictures come from an export archive only');
  const photos: Record<string, StoredPhoto> = {};
  for (const [number, value] of Object.entries(input as Record<string, unknown>)) {
    if (!/^[1-9][0-9]{0,2}$/.test(number)) throw new Error(`photos: ${number} is not a picture number (1-999)`);
    const picture = importedPicture(value, 'book');
    if (!picture) throw new Error(`photos.${number}: ${typeof value === 'string' ? `${value} is not among the archive's pictures` : 'not a picture of an export archive'}`);
    photos[number] = { key: picture.key, format: picture.format, width: picture.width, height: picture.height };
  }
  return photos;
}
