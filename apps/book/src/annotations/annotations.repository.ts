import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { AnnotationOrder } from '@plaza/contracts';
import { Model, SortOrder } from 'mongoose';
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

@Injectable()
export class AnnotationsRepository {
  constructor(@InjectModel(AnnotationDocument.name) private readonly annotations: Model<AnnotationDocument>) {}

  async byId(id: string): Promise<AnnotationDocument | null> {
    return this.annotations.findById(id).lean<AnnotationDocument>().exec();
  }

  async insert(doc: AnnotationDocument): Promise<void> {
    await this.annotations.create(doc);
  }

  async replace(doc: AnnotationDocument): Promise<void> {
    await this.annotations.replaceOne({ _id: doc._id }, doc).exec();
  }

  async delete(id: string): Promise<void> {
    await this.annotations.deleteOne({ _id: id }).exec();
  }

  async list(filter: AnnotationFilter, order: AnnotationOrder | 'updated', start: number, count: number): Promise<{ total: number; items: AnnotationDocument[] }> {
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
