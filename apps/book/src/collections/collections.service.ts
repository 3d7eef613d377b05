import { Inject, Injectable } from '@nestjs/common';
import {
  ApiError, Caller, Collection, CollectionInput, CollectionList, CollectionLookupQuery, envelope, isPrivate, PageRequest,
  parseRfc3339, parseTags, TagList, toCollectionStatus, UserCollectionsQuery,
} from '@plaza/contracts';
import { APP_CONFIG, Clock, CLOCK, formatTimestamp, JsonAround, jsonAround, JsonPieces, KeyedMutex, pageJson, ServiceJson, UsersDirectory } from '@plaza/platform';
import { Sequences } from '@plaza/service-kit';
import { BookView } from '../books/book.schema';
import { BooksRepository } from '../books/books.repository';
import { BooksService } from '../books/books.service';
import { BookAggregateJournal } from '../reviews/book-aggregate-journal';
import { BookConfig } from '../config/book.config';
import { userRating } from '../common/contributions';
import { requireUser } from '../common/users';
import { CollectionDocument, collectionKey } from './collection.schema';
import { CollectionsRepository } from './collections.repository';

/** Replaces of one entry that lost to another instance's change before giving up (each one means a change went through). */
const MAX_ATTEMPTS = 20;

export function requireLogin(caller: Caller): string {
  if (!caller.userId) throw new ApiError('need_permission', 'a logged-in user is required');
  return caller.userId;
}

/**
 * Users' collection entries (docs/api/book.md, "Collections"): POST creates (201, or 409/6011 when
 * the entry exists), PUT replaces (202), DELETE removes (204). Each write also moves the entry's
 * rating and tags into or out of the book's aggregates, and (MongoDB) its tags into the user's
 * `user_tag_counts`: the writes run under an entry of the book aggregates' journal
 * (BookAggregateJournal) naming the book and the user, so a crash between them is completed from
 * the book's and the user's entries at the next start (docs/ENGINES.md point 3).
 */
@Injectable()
export class CollectionsService {
  /**
   * One write at a time per entry in this instance: spares its own writes the retries of the
   * compare-and-swap (the repository's `rev`), which is what keeps several instances exact.
   */
  private readonly lock = new KeyedMutex();
  /** The JSON of an entry's own fields around its book, by the entry the local engine holds. */
  private readonly heldJson = new WeakMap<CollectionDocument, JsonAround>();

  constructor(
    private readonly collections: CollectionsRepository,
    private readonly books: BooksService,
    private readonly bookRecords: BooksRepository,
    private readonly users: UsersDirectory,
    private readonly journal: BookAggregateJournal,
    private readonly sequences: Sequences,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: BookConfig,
  ) {}

  async create(bookId: string, input: CollectionInput, caller: Caller): Promise<Collection> {
    const userId = requireLogin(caller);
    await this.books.requireBook(bookId);
    return this.lock.run(collectionKey(userId, bookId), async () => {
      if (await this.collections.find(userId, bookId)) throw new ApiError('collection_exist');
      const now = this.now();
      const entry: CollectionDocument = {
        _id: collectionKey(userId, bookId),
        id: await this.sequences.next('collection'),
        user_id: userId,
        book_id: bookId,
        ...this.fieldsOf(input),
        created: now,
        updated: now,
      };
      // the two writes under a journal entry; a refusal (the entry exists) costs none
      return this.journal.run(bookId, async () => {
        // the unique `_id` settles a race with another instance: exactly one insert wins
        if (!(await this.collections.insert(entry))) throw new ApiError('collection_exist');
        const book = await this.books.applyContribution(bookId, undefined, entry);
        return this.present(entry, book);
      }, userId);
    });
  }

  async update(bookId: string, input: CollectionInput, caller: Caller): Promise<Collection> {
    const userId = requireLogin(caller);
    await this.books.requireBook(bookId);
    return this.lock.run(collectionKey(userId, bookId), async () => {
      for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
        const previous = await this.collections.find(userId, bookId);
        if (!previous) throw new ApiError('uri_not_found', 'no collection entry for this book; POST creates one');
        // PUT takes the same parameters as POST and replaces the entry: what is left out is cleared
        const { rating: _old, ...kept } = previous;
        const entry: CollectionDocument = { ...kept, ...this.fieldsOf(input), updated: this.now() };
        const done = await this.journal.run(bookId, async () => {
          // another instance changed the entry since it was read: read it again
          if (!(await this.collections.replace(previous, entry))) return undefined;
          return this.present(entry, await this.books.applyContribution(bookId, previous, entry));
        }, userId);
        if (done) return done;
      }
      throw new Error(`collection entry ${collectionKey(userId, bookId)} kept changing`);
    });
  }

  async remove(bookId: string, caller: Caller): Promise<Record<string, never>> {
    const userId = requireLogin(caller);
    await this.books.requireBook(bookId);
    return this.lock.run(collectionKey(userId, bookId), async () => {
      for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
        const previous = await this.collections.find(userId, bookId);
        if (!previous) throw new ApiError('uri_not_found', 'no collection entry for this book');
        const done = await this.journal.run(bookId, async () => {
          if (!(await this.collections.delete(previous))) return false;
          await this.books.applyContribution(bookId, previous, undefined);
          return true;
        }, userId);
        if (done) return {};
      }
      throw new Error(`collection entry ${collectionKey(userId, bookId)} kept changing`);
    });
  }

  /**
   * GET /v2/book/:id/collection: the caller's entry, or with `user_id` that user's. A private
   * entry shows only to its owner; an absent one is 404/1001 (docs/api/book.md, "GET /v2/book/:id/collection").
   */
  async get(bookId: string, query: CollectionLookupQuery, caller: Caller): Promise<Collection> {
    // without user_id the caller's own entry is meant: that needs a logged-in user (docs/api/book.md)
    if (!query.user_id) requireLogin(caller);
    const book = await this.books.requireBook(bookId);
    const ownerId = query.user_id ? (await requireUser(this.users, query.user_id)).id : requireLogin(caller);
    const entry = (await this.collections.ofUserForBooks(ownerId, [bookId])).get(bookId);
    if (!entry || (entry.private && entry.user_id !== caller.userId)) throw new ApiError('uri_not_found', 'no collection entry');
    return this.present(entry, book);
  }

  /** GET /v2/book/user/:name/collections, newest change first; others see public entries only. */
  async listByUser(ref: string, query: UserCollectionsQuery, page: PageRequest, caller: Caller): Promise<ServiceJson<CollectionList>> {
    const user = await requireUser(this.users, ref);
    const { total, items } = await this.collections.listByUser(
      user.id,
      {
        status: query.status && query.status !== 'all' ? toCollectionStatus(query.status) : undefined,
        tag: query.tag !== undefined ? query.tag.normalize('NFKC').trim() : undefined,
        from: query.from ? parseRfc3339(query.from) : undefined,
        to: query.to ? parseRfc3339(query.to) : undefined,
        rating: query.rating,
        includePrivate: caller.userId === user.id,
      },
      page.start,
      page.count,
    );
    const books = await this.bookRecords.byIds(items.map((c) => c.book_id));
    const collections = items.flatMap((c) => {
      const book = books.get(c.book_id);
      return book ? [this.presentJson(c, book)] : [];
    });
    return pageJson('collections', page.start, total, collections);
  }

  /** A user's tags with how many entries carry each (public entries only, unless the owner asks), the most used first. */
  async userTags(ref: string, page: PageRequest, caller: Caller): Promise<TagList> {
    const user = await requireUser(this.users, ref);
    const { total, items } = await this.collections.userTags(user.id, caller.userId === user.id, page.start, page.count);
    return envelope('tags', page.start, total, items.map(({ title, count }) => ({ count, title })));
  }

  /**
   * Update times are kept to the second, as they are shown: a time a client read back and sends
   * as `from` or `to` then names exactly the entries it saw.
   */
  private now(): Date {
    return new Date(Math.floor(this.clock.now().getTime() / 1000) * 1000);
  }

  private fieldsOf(input: CollectionInput): Pick<CollectionDocument, 'status' | 'tags' | 'comment' | 'rating' | 'private'> {
    return {
      status: toCollectionStatus(input.status),
      tags: parseTags(input.tags),
      comment: input.comment ?? '',
      ...(input.rating ? { rating: input.rating } : {}),
      private: isPrivate(input.privacy),
    };
  }

  present(entry: CollectionDocument, book: BookView): Collection {
    return { book: this.books.present(book), ...this.entryFields(entry) };
  }

  /**
   * `present` as JSON: the book's part held by BooksService.presentJson, and the entry's own fields
   * held beside the entry the local engine holds (gone with it when the entry changes), as a user's
   * annotations are (AnnotationsService.presentJson).
   */
  private presentJson(entry: CollectionDocument, book: BookView): JsonPieces {
    const { head, tail } = this.aroundBook(entry);
    return [head, this.books.presentJson(book), tail];
  }

  /** The entry's JSON around its book (`present`: the book first), encoded once for the entry the local engine holds. */
  private aroundBook(entry: CollectionDocument): JsonAround {
    if (!this.collections.isHeld(entry)) return jsonAround({}, 'book', this.entryFields(entry));
    let held = this.heldJson.get(entry);
    if (!held) this.heldJson.set(entry, (held = jsonAround({}, 'book', this.entryFields(entry))));
    return held;
  }

  private entryFields(entry: CollectionDocument): Omit<Collection, 'book'> {
    const rating = userRating(entry.rating);
    return {
      book_id: entry.book_id,
      comment: entry.comment ?? '',
      id: entry.id,
      ...(rating ? { rating } : {}),
      status: entry.status,
      tags: entry.tags ?? [],
      updated: formatTimestamp(new Date(entry.updated), this.config.SERVICE_TIMEZONE),
      user_id: entry.user_id,
    };
  }
}
