import { Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { DatabaseEngine, LocalGroupedMirror, LocalSearchIndex, SearchPage, SearchQuery, SearchWindow } from '@plaza/service-kit';
import { Model } from 'mongoose';
import { AnnotationDocument } from '../annotations/annotation.schema';
import { CollectionDocument } from '../collections/collection.schema';
import { aggregateContributions, BookContribution, movedBy, noUserAggregates, UserAggregates } from '../common/contributions';
import { ReviewDocument } from '../reviews/review.schema';
import type { AggregateDelta } from './books.repository';
import { BookDocument, BookView } from './book.schema';
import { bookSearchFields, bookTagRanks } from './book-search';

/** The filter of a user's collection list (CollectionsRepository.listByUser). */
export interface CollectionFilter {
  status?: CollectionDocument['status'];
  tag?: string;
  from?: Date;
  to?: Date;
  rating?: number;
  /** Only the owner sees private entries. */
  includePrivate: boolean;
}

/** A user's tag with how many of their entries carry it. */
export interface UserTagCount {
  title: string;
  count: number;
}

/**
 * Everything the book service does differently on the local engine (docs/ENGINES.md lists each
 * difference with its tests): FerretDB v1 answers any filter other than `_id` by decoding every
 * document of a collection, so book search, the books shown on a page, and a user's collection
 * entries, tags and annotations are answered from read models held here, loaded once and kept
 * current by the repositories after each write (BooksRepository, CollectionsRepository,
 * AnnotationsRepository: each fork is a `DatabaseEngine.run` there, whose
 * MongoDB branch queries the indexes). Exact because on the local engine the service runs as one
 * instance (its lease) and its repositories are the collections' only writers.
 *
 * The users' part of each book's rating and tags is held here too, and not stored with the book:
 * counted from the collection entries and reviews when the service starts, then moved by each
 * write's difference (`applyUserAggregates`). A rating on MongoDB is a write of the book; here it
 * is none, and FerretDB's rewrite of a whole book was most of a collection write's cost
 * (docs/PERFORMANCE.md, "Writes"). A crash cannot leave them off: they are counted again from
 * their sources at the next start.
 */
@Injectable()
export class BookLocalEngine implements OnApplicationBootstrap {
  /**
   * Search in the MongoDB branch's order: the search fields computed from the book with its held
   * users' aggregates (this engine stores neither: `locallyStored` in BooksRepository), whatever
   * a stored book of an older version carries; beside each book's search entry, the book as shown
   * (`bookView`), so a page of results or of a user's list, and a read by id, read no document.
   */
  private readonly search = new LocalSearchIndex<BookDocument, BookView>(bookSearchFields, bookTagRanks, bookView);
  private readonly entriesByUser = new EntryMirror();
  private readonly annotationsByAuthor = new LocalGroupedMirror<AnnotationDocument>((annotation) => annotation.author_id);
  /** Each book's users' aggregates (absent: none), once counted (`userAggregatesReady`). */
  private readonly aggregates = new Map<string, UserAggregates>();
  /** How often each book's aggregates have moved since the start: a repair's "unchanged meanwhile" (BookUserAggregates). */
  private readonly aggregateVersions = new Map<string, number>();
  private counting?: Promise<void>;

  constructor(
    @InjectModel(BookDocument.name) private readonly books: Model<BookDocument>,
    @InjectModel(CollectionDocument.name) private readonly collections: Model<CollectionDocument>,
    @InjectModel(ReviewDocument.name) private readonly reviews: Model<ReviewDocument>,
    @InjectModel(AnnotationDocument.name) private readonly annotations: Model<AnnotationDocument>,
    private readonly engine: DatabaseEngine,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    // the books' scan and the count of their aggregates (entries, then reviews) run side by side
    await this.search.preload(this.engine, () => this.allBooks());
    await this.entriesByUser.preload(this.engine, () => this.allEntries());
    await this.annotationsByAuthor.preload(this.engine, () => this.allAnnotations());
  }

  /**
   * Counts every book's users' aggregates from the entries (held here) and the reviews, once; a
   * failed count is tried again by the next call. Writes that move aggregates wait for it (the
   * aggregates journal's first sweep calls it, and they wait for that sweep).
   */
  userAggregatesReady(): Promise<void> {
    this.counting ??= this.countUserAggregates().catch((err: unknown) => {
      this.counting = undefined;
      throw err;
    });
    return this.counting;
  }

  /** The book with its users' aggregates as held here (`userAggregatesReady` must have resolved). */
  withUserAggregates<T extends Pick<BookDocument, '_id' | 'user_rating' | 'user_tags'>>(doc: T): T {
    const { num, sum, tags } = this.aggregates.get(doc._id) ?? noUserAggregates();
    return { ...doc, user_rating: { num, sum }, user_tags: tags };
  }

  /** Moves a book's aggregates by a write's difference (under the book's lock, BooksRepository). */
  applyUserAggregates(id: string, delta: AggregateDelta): void {
    this.aggregates.set(id, movedBy(this.aggregates.get(id) ?? noUserAggregates(), delta));
    this.aggregateVersions.set(id, this.aggregateVersion(id) + 1);
  }

  aggregateVersion(id: string): number {
    return this.aggregateVersions.get(id) ?? 0;
  }

  private async countUserAggregates(): Promise<void> {
    await this.entriesByUser.ready(() => this.allEntries());
    const contributions: BookContribution[] = [...this.entriesByUser.all()];
    for await (const review of this.reviews.find({}, { book_id: 1, rating: 1 }).lean<Array<Pick<ReviewDocument, 'book_id' | 'rating'>>>().cursor()) contributions.push(review);
    this.aggregates.clear();
    for (const [bookId, counted] of aggregateContributions(contributions)) this.aggregates.set(bookId, counted);
  }

  async searchPage(query: SearchQuery, window: SearchWindow): Promise<SearchPage> {
    await this.search.ready(() => this.allBooks());
    return this.search.page(query, window);
  }

  /** Holds the book as written, with its users' aggregates as held here (`userAggregatesReady` must have resolved). */
  bookWritten(doc: BookDocument): void {
    this.search.put(this.withUserAggregates(doc));
  }

  /** Whether `view` is the view held for its book now (not a copy read from the database, nor an older view). */
  holds(view: BookView): boolean {
    return this.search.loaded && this.search.kept(view._id) === view;
  }

  /** The view held for the book now, if the index has loaded. */
  heldView(id: string): BookView | undefined {
    return this.search.loaded ? this.search.kept(id) : undefined;
  }

  /** The books of `ids` that exist, as shown; undefined until the index has loaded (the caller reads them by `_id`). */
  views(ids: string[]): BookView[] | undefined {
    if (!this.search.loaded) return undefined;
    return ids.map((id) => this.search.kept(id)).filter((b): b is BookView => b !== undefined);
  }

  async listByUser(userId: string, filter: CollectionFilter, start: number, count: number): Promise<{ total: number; items: CollectionDocument[] }> {
    const matching = (await this.entriesOf(userId)).filter((entry) => matchesFilter(entry, filter)).sort(newestChangeFirst);
    return { total: matching.length, items: count === 0 ? [] : matching.slice(start, start + count) };
  }

  /** A user's tags, the most used first, then by name (the order of user_tag_counts' index on MongoDB). */
  async userTags(userId: string, includePrivate: boolean, start: number, count: number): Promise<{ total: number; items: UserTagCount[] }> {
    const counts = new Map<string, number>();
    for (const entry of await this.entriesOf(userId)) {
      if (!includePrivate && entry.private) continue;
      for (const tag of new Set(entry.tags ?? [])) counts.set(tag, (counts.get(tag) ?? 0) + 1);
    }
    const tags = [...counts.entries()]
      .sort(([a, x], [b, y]) => y - x || (a < b ? -1 : a > b ? 1 : 0))
      .map(([title, n]) => ({ title, count: n }));
    return { total: tags.length, items: count === 0 ? [] : tags.slice(start, start + count) };
  }

  /** Whether `entry` is the collection entry held for its key now. */
  holdsEntry(entry: CollectionDocument): boolean {
    return this.entriesByUser.get(entry._id) === entry;
  }

  entryWritten(entry: CollectionDocument): void {
    this.entriesByUser.put(entry);
  }

  entryRemoved(id: string): void {
    this.entriesByUser.remove(id);
  }

  /** The entries held under these keys (`<user>:<book>`) that exist. */
  async entries(keys: string[]): Promise<CollectionDocument[]> {
    await this.entriesByUser.ready(() => this.allEntries());
    return keys.map((key) => this.entriesByUser.get(key)).filter((entry): entry is CollectionDocument => entry !== undefined);
  }

  /** The key (`<user>:<book>`) of the entry whose public id is `id`, if any. */
  async entryKeyWithId(id: number): Promise<string | undefined> {
    await this.entriesByUser.ready(() => this.allEntries());
    return this.entriesByUser.keyWithId(id);
  }

  /** A user's annotations, in no particular order. */
  async annotationsOf(authorId: string): Promise<AnnotationDocument[]> {
    await this.annotationsByAuthor.ready(() => this.allAnnotations());
    return this.annotationsByAuthor.group(authorId);
  }

  /** Whether `doc` is the annotation held for its id now. */
  holdsAnnotation(doc: AnnotationDocument): boolean {
    return this.annotationsByAuthor.get(doc._id) === doc;
  }

  annotationWritten(doc: AnnotationDocument): void {
    this.annotationsByAuthor.put(doc);
  }

  annotationRemoved(id: string): void {
    this.annotationsByAuthor.remove(id);
  }

  private async entriesOf(userId: string): Promise<CollectionDocument[]> {
    await this.entriesByUser.ready(() => this.allEntries());
    return this.entriesByUser.group(userId);
  }

  /**
   * Every book with its users' aggregates. The books are read while the aggregates are counted
   * (each takes a scan); a book read before the count ended is given as stored, then again with
   * them once it has (the index counts as loaded only after both).
   */
  private async *allBooks(): AsyncIterable<BookDocument> {
    let counted = false;
    const counting = this.userAggregatesReady().then(() => void (counted = true));
    counting.catch(() => undefined); // awaited below: a failure is the load's
    const early: string[] = [];
    for await (const doc of this.books.find({}).lean<BookDocument[]>().cursor()) {
      if (counted) yield this.withUserAggregates(doc);
      else {
        early.push(doc._id);
        yield doc;
      }
    }
    await counting;
    for (const id of early) {
      const held = this.search.kept(id);
      if (held) yield this.withUserAggregates(held as BookDocument);
    }
  }

  private async *allEntries(): AsyncIterable<CollectionDocument> {
    yield* this.collections.find({}).lean<CollectionDocument[]>().cursor();
  }

  private async *allAnnotations(): AsyncIterable<AnnotationDocument> {
    yield* this.annotations.find({}).lean<AnnotationDocument[]>().cursor();
  }
}

/** The entries grouped by user, and each entry's key by its public id (an import checks that ids never collide). */
class EntryMirror extends LocalGroupedMirror<CollectionDocument> {
  private readonly keyOfId = new Map<number, string>();
  private readonly idOfKey = new Map<string, number>();

  constructor() {
    super((entry) => entry.user_id);
  }

  keyWithId(id: number): string | undefined {
    return this.keyOfId.get(id);
  }

  protected override store(doc: CollectionDocument): void {
    super.store(doc);
    this.keyOfId.set(doc.id, doc._id);
    this.idOfKey.set(doc._id, doc.id);
  }

  protected override drop(key: string): void {
    super.drop(key);
    const id = this.idOfKey.get(key);
    if (id === undefined) return;
    this.idOfKey.delete(key);
    if (this.keyOfId.get(id) === key) this.keyOfId.delete(id);
  }
}

/** A stored book without its search fields: what showing it needs (presentBook). */
export function bookView(doc: BookDocument): BookView {
  const { search_terms: _terms, title_terms: _titleTerms, title_keys: _titleKeys, tag_keys: _tagKeys, search_rank: _rank, ...view } = doc;
  return view;
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
