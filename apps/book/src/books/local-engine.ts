import { Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { DatabaseEngine, LocalGroupedMirror, LocalSearchIndex, SearchPage, SearchQuery, SearchWindow } from '@plaza/service-kit';
import { Model } from 'mongoose';
import { CollectionDocument } from '../collections/collection.schema';
import { BookDocument } from './book.schema';
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
 * document of a collection, so book search and a user's collection entries and tags are answered
 * from read models held here, loaded once and kept current by the repositories after each write
 * (BooksRepository, CollectionsRepository: each fork is a `DatabaseEngine.run` there, whose
 * MongoDB branch queries the indexes). Exact because on the local engine the service runs as one
 * instance (its lease) and its repositories are the collections' only writers.
 */
@Injectable()
export class BookLocalEngine implements OnApplicationBootstrap {
  /** Search in the MongoDB branch's order: the stored search fields (computed for books stored before they existed). */
  private readonly search = new LocalSearchIndex<BookDocument>((doc) => (doc.search_rank ? doc : bookSearchFields(doc)), bookTagRanks);
  private readonly entriesByUser = new LocalGroupedMirror<CollectionDocument>((entry) => entry.user_id);

  constructor(
    @InjectModel(BookDocument.name) private readonly books: Model<BookDocument>,
    @InjectModel(CollectionDocument.name) private readonly collections: Model<CollectionDocument>,
    private readonly engine: DatabaseEngine,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.search.preload(this.engine, () => this.allBooks());
    await this.entriesByUser.preload(this.engine, () => this.allEntries());
  }

  async searchPage(query: SearchQuery, window: SearchWindow): Promise<SearchPage> {
    await this.search.ready(() => this.allBooks());
    return this.search.page(query, window);
  }

  bookWritten(doc: BookDocument): void {
    this.search.put(doc);
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

  entryWritten(entry: CollectionDocument): void {
    this.entriesByUser.put(entry);
  }

  entryRemoved(id: string): void {
    this.entriesByUser.remove(id);
  }

  private async entriesOf(userId: string): Promise<CollectionDocument[]> {
    await this.entriesByUser.ready(() => this.allEntries());
    return this.entriesByUser.group(userId);
  }

  private async *allBooks(): AsyncIterable<BookDocument> {
    const fields = {
      _id: 1, title: 1, origin_title: 1, alt_title: 1, subtitle: 1, base_rating: 1, user_rating: 1, base_tags: 1, user_tags: 1,
      search_terms: 1, title_terms: 1, title_keys: 1, tag_keys: 1, search_rank: 1,
    };
    yield* this.books.find({}, fields).lean<BookDocument[]>().cursor();
  }

  private async *allEntries(): AsyncIterable<CollectionDocument> {
    yield* this.collections.find({}).lean<CollectionDocument[]>().cursor();
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
