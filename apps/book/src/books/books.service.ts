import { Inject, Injectable } from '@nestjs/common';
import { ApiError, Book, BookList, BookSearchQuery, Caller, CurrentUserCollection, envelope, PageRequest, TagList } from '@plaza/contracts';
import { APP_CONFIG, CacheInvalidator, formatTimestamp, JsonPieces, joinJson, pageJson, ServiceJson } from '@plaza/platform';
import { SEARCH_RESULT_LIMIT, searchQuery } from '@plaza/service-kit';
import { LRUCache } from 'lru-cache';
import { CollectionDocument } from '../collections/collection.schema';
import { CollectionsRepository } from '../collections/collections.repository';
import { BookConfig } from '../config/book.config';
import { SeriesRepository } from '../series/series.repository';
import { Contribution, contributionDelta, isEmptyDelta, userRating } from '../common/contributions';
import { pageOf } from '../common/paging';
import { BookView } from './book.schema';
import { BookAddresses, bookCacheTags, mergeTags, presentBook, tagSearchKey, toTagResource } from './book-view';
import { BooksRepository } from './books.repository';
import { IsbnsRepository } from './isbns.repository';

/**
 * How much of the books shown lately is held as JSON (`presentJson`): about 5 000 books of the
 * demo catalogue's size, a few MB beside the views themselves.
 */
const SHOWN_BOOKS_BYTES = 8 * 1024 * 1024;

/** Book records: reads, search, tags, series, and the users' share of ratings and tags. */
@Injectable()
export class BooksService {
  private readonly addresses: BookAddresses;
  /** By book id: a view and its JSON as shown, valid while the view is the one held (a change makes a new view). */
  private readonly shown = new LRUCache<string, { view: BookView; json: Buffer }>({ maxSize: SHOWN_BOOKS_BYTES, sizeCalculation: (entry) => entry.json.length + 100 });

  constructor(
    private readonly books: BooksRepository,
    private readonly isbns: IsbnsRepository,
    private readonly series: SeriesRepository,
    private readonly collections: CollectionsRepository,
    private readonly cache: CacheInvalidator,
    @Inject(APP_CONFIG) private readonly config: BookConfig,
  ) {
    this.addresses = { publicApiUrl: config.PUBLIC_API_URL, publicWebUrl: config.PUBLIC_WEB_URL };
  }

  async requireBook(id: string): Promise<BookView> {
    const book = await this.books.byId(id);
    if (!book) throw new ApiError('book_not_found', `no book ${id}`);
    return book;
  }

  /** The book as the API shows it, without anything caller-specific. */
  present(doc: BookView): Book {
    return presentBook(doc, this.addresses);
  }

  /**
   * `present` as JSON bytes, for list pages joined from their parts: a user's list shows the same
   * books over and over, and presenting and encoding each one again was a third of such a page's
   * cost in this service (docs/PERFORMANCE.md, "Search and lists"). Kept only for the views the
   * local engine holds: a view read from MongoDB is a new object on every read, and keeping its
   * JSON would only keep the copy alive.
   */
  presentJson(doc: BookView): Buffer {
    if (!this.books.isHeld(doc)) return Buffer.from(JSON.stringify(this.present(doc)));
    const held = this.shown.get(doc._id);
    if (held?.view === doc) return held.json;
    const json = Buffer.from(JSON.stringify(this.present(doc)));
    this.shown.set(doc._id, { view: doc, json });
    return json;
  }

  /**
   * A book as the API shows it to the caller: its held JSON (presentJson), with the caller's own
   * entry as the last field when there is one, where presentBook puts it.
   */
  private shownTo(doc: BookView, current: CurrentUserCollection | undefined): JsonPieces {
    const json = this.presentJson(doc);
    if (!current) return [json];
    return [json.subarray(0, json.length - 1), ',"current_user_collection":', JSON.stringify(current), '}'];
  }

  /** GET /v2/book/:id: one read by `_id`, plus the caller's own entry when logged in. */
  async get(id: string, caller: Caller): Promise<ServiceJson<Book>> {
    const book = await this.requireBook(id);
    return new ServiceJson(joinJson(this.shownTo(book, (await this.currentEntries([book._id], caller)).get(book._id))));
  }

  async getByIsbn(isbn: string, caller: Caller): Promise<ServiceJson<Book>> {
    const id = await this.isbns.bookIdFor(isbn);
    const book = id ? await this.books.byId(id) : null;
    if (!book) throw new ApiError('book_not_found', `no book with ISBN ${isbn}`);
    return new ServiceJson(joinJson(this.shownTo(book, (await this.currentEntries([book._id], caller)).get(book._id))));
  }

  /**
   * GET /v2/book/search: `q` matches by search terms (Chinese by character pairs, other scripts
   * by words), `tag` by tag name; both given, a book must match both. User text only ever
   * becomes plain strings compared for equality.
   */
  async search(query: BookSearchQuery, page: PageRequest, caller: Caller): Promise<ServiceJson<BookList>> {
    const q = query.q?.trim() || undefined;
    const tag = query.tag?.trim() || undefined;
    if (!q && !tag) throw new ApiError('missing_args', 'q or tag is required');
    const search = searchQuery(q, tag === undefined ? undefined : tagSearchKey(tag));
    // a query of only punctuation has no terms: it matches nothing rather than everything
    if (q && search.terms.length === 0) return pageJson('books', page.start, 0, []);
    const { total, ids } = await this.books.searchPage(search, { start: page.start, count: page.count, limit: SEARCH_RESULT_LIMIT });
    // only the page is read whole (by `_id`)
    const found = await this.books.byIds(ids);
    const docs = ids.map((id) => found.get(id)).filter((d): d is BookView => d !== undefined);
    const current = await this.currentEntries(ids, caller);
    // joined from each book's held JSON: presenting and encoding each result again was a third of
    // a search's cost in this service (docs/PERFORMANCE.md, "Search and lists")
    return pageJson('books', page.start, total, docs.map((doc) => this.shownTo(doc, current.get(doc._id))));
  }

  /** GET /v2/book/:id/tags: pages within the top 50 (docs/api/book.md). */
  async tags(id: string, page: PageRequest): Promise<TagList> {
    const book = await this.requireBook(id);
    const tags = mergeTags(book.base_tags, book.user_tags).map(toTagResource);
    return envelope('tags', page.start, tags.length, pageOf(tags, page));
  }

  /** GET /v2/book/series/:id/books, in id order. An unknown series is 404/1001. */
  async seriesBooks(id: string, page: PageRequest): Promise<BookList> {
    const [series, { total, books }] = await Promise.all([this.series.byId(id), this.books.inSeries(id, page.start, page.count)]);
    if (!series && total === 0) throw new ApiError('uri_not_found', `no series ${id}`);
    return envelope('books', page.start, total, books.map((b) => this.present(b)));
  }

  /**
   * Replaces one user's contribution (a collection entry or a review) in the book's rating and
   * tags, and drops cached answers that showed the old numbers. Returns the book after it.
   */
  async applyContribution(bookId: string, before: Contribution | undefined, after: Contribution | undefined): Promise<BookView> {
    const delta = contributionDelta(before, after);
    const book = isEmptyDelta(delta) ? await this.books.byId(bookId) : await this.books.applyUserAggregates(bookId, delta);
    if (!book) throw new ApiError('book_not_found', `no book ${bookId}`);
    if (!isEmptyDelta(delta)) this.cache.tags(...bookCacheTags(book));
    return book;
  }

  /** `current_user_collection` for each of these books: only for a logged-in caller, only the caller's own entries. */
  private async currentEntries(bookIds: string[], caller: Caller): Promise<Map<string, CurrentUserCollection>> {
    if (!caller.userId) return new Map();
    const entries = await this.collections.ofUserForBooks(caller.userId, bookIds);
    return new Map([...entries].map(([bookId, entry]) => [bookId, this.presentCurrent(entry)]));
  }

  presentCurrent(entry: CollectionDocument): CurrentUserCollection {
    const rating = userRating(entry.rating);
    return {
      status: entry.status,
      ...(rating ? { rating } : {}),
      updated: formatTimestamp(new Date(entry.updated), this.config.SERVICE_TIMEZONE),
      user_id: entry.user_id,
      book_id: entry.book_id,
      id: entry.id,
    };
  }
}
