import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { AnnotationOrder } from '@plaza/contracts';
import { DatabaseEngine } from '@plaza/service-kit';
import { Model, SortOrder } from 'mongoose';
import { BookLocalEngine } from '../books/local-engine';
import { AnnotationDocument } from './annotation.schema';

export interface AnnotationFilter {
  bookId?: string;
  authorId?: string;
  pageNo?: number;
  includePrivate: boolean;
}

/** `collect` newest first; `rank` most comments first, then newest (docs/api/book.md); `page` in page order. */
const ORDERS: Record<AnnotationOrder | 'updated', Record<string, SortOrder>> = {
  collect: { created: -1, seq: -1 },
  rank: { comments_count: -1, created: -1, seq: -1 },
  page: { page_order: 1, seq: 1 },
  updated: { updated: -1, seq: -1 },
};

/**
 * The annotations. A user's annotations come from the `{author_id, ...}` indexes on MongoDB, and
 * from BookLocalEngine's in-memory annotations of each author on the local engine, kept current
 * here after every write (this repository is the collection's only writer); a book's annotations
 * are a database query on both (on the local engine a scan: the book's page only).
 */
@Injectable()
export class AnnotationsRepository {
  constructor(
    @InjectModel(AnnotationDocument.name) private readonly annotations: Model<AnnotationDocument>,
    private readonly engine: DatabaseEngine,
    private readonly local: BookLocalEngine,
  ) {}

  /** Whether `doc` is the annotation the local engine holds now (not a copy read from the database, nor an older version). */
  isHeld(doc: AnnotationDocument): boolean {
    return this.local.holdsAnnotation(doc);
  }

  async byId(id: string): Promise<AnnotationDocument | null> {
    return this.annotations.findById(id).lean<AnnotationDocument>().exec();
  }

  async insert(doc: AnnotationDocument): Promise<void> {
    await this.engine.write(() => this.annotations.create(doc));
    await this.written(doc._id, doc);
  }

  async replace(doc: AnnotationDocument): Promise<void> {
    await this.engine.write(() => this.annotations.replaceOne({ _id: doc._id }, doc).exec());
    await this.written(doc._id, doc);
  }

  async delete(id: string): Promise<void> {
    await this.engine.write(() => this.annotations.deleteOne({ _id: id }).exec());
    await this.written(id, undefined);
  }

  /** What follows a stored change: the in-memory annotations of the author on the local engine. */
  private written(id: string, doc: AnnotationDocument | undefined): Promise<void> {
    return this.engine.run('book.annotations.upkeep', {
      mongodb: () => undefined,
      local: () => (doc ? this.local.annotationWritten(doc) : this.local.annotationRemoved(id)),
    });
  }

  async list(filter: AnnotationFilter, order: AnnotationOrder | 'updated', start: number, count: number): Promise<{ total: number; items: AnnotationDocument[] }> {
    if (filter.authorId === undefined) return this.listFromDatabase(filter, order, start, count);
    const authorId = filter.authorId;
    return this.engine.run('book.annotations.by-author', {
      mongodb: () => this.listFromDatabase(filter, order, start, count),
      local: async () => {
        const sort = ORDERS[order];
        const matching = (await this.local.annotationsOf(authorId))
          .filter((a) => (filter.bookId === undefined || a.book_id === filter.bookId) && (filter.pageNo === undefined || a.page_no === filter.pageNo))
          .filter((a) => filter.includePrivate || !a.private)
          .sort((a, b) => compareBy(sort, a, b));
        return { total: matching.length, items: count === 0 ? [] : matching.slice(start, start + count) };
      },
    });
  }

  private async listFromDatabase(filter: AnnotationFilter, order: AnnotationOrder | 'updated', start: number, count: number): Promise<{ total: number; items: AnnotationDocument[] }> {
    const query: Record<string, unknown> = {};
    if (filter.bookId !== undefined) query.book_id = filter.bookId;
    if (filter.authorId !== undefined) query.author_id = filter.authorId;
    if (filter.pageNo !== undefined) query.page_no = filter.pageNo;
    if (!filter.includePrivate) query.private = false;
    const [total, items] = await Promise.all([
      this.annotations.countDocuments(query).exec(),
      count === 0 ? Promise.resolve([]) : this.annotations.find(query).sort(ORDERS[order]).skip(start).limit(count).lean<AnnotationDocument[]>().exec(),
    ]);
    return { total, items };
  }
}

/** The database's order `sort` applied to annotations held in memory (dates by time, numbers by value). */
function compareBy(sort: Record<string, SortOrder>, a: AnnotationDocument, b: AnnotationDocument): number {
  for (const [field, direction] of Object.entries(sort)) {
    const value = (doc: AnnotationDocument) => {
      const v = (doc as unknown as Record<string, unknown>)[field];
      return v instanceof Date ? v.getTime() : Number(v ?? 0);
    };
    const d = value(a) - value(b);
    if (d !== 0) return direction === -1 || direction === 'desc' || direction === 'descending' ? -d : d;
  }
  return 0;
}
