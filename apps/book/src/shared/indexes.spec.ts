import { captureQueries, MONGODB_ENGINE, unindexedQueries } from '@plaza/service-kit';
import mongoose from 'mongoose';
import { AnnotationDocument, AnnotationSchema } from '../annotations/annotation.schema';
import { AnnotationsRepository } from '../annotations/annotations.repository';
import { BookDocument, BookSchema } from '../books/book.schema';
import { BooksRepository } from '../books/books.repository';
import { CollectionDocument, CollectionSchema } from '../collections/collection.schema';
import { CollectionsRepository } from '../collections/collections.repository';

/**
 * Every list and search query of the book service has an index on MongoDB (issue 8: "search and
 * per-user lists use indexes"). FerretDB ignores secondary indexes, so this is where a missing
 * one is caught. See libs/service-kit/src/mongo/index-coverage.ts for the planner rules applied.
 */
const db = new mongoose.Mongoose();
// the MongoDB path (on FerretDB search runs on the in-memory index)
const books = new BooksRepository(db.model(BookDocument.name, BookSchema) as never, MONGODB_ENGINE);
const collections = new CollectionsRepository(db.model(CollectionDocument.name, CollectionSchema) as never, MONGODB_ENGINE);
const annotations = new AnnotationsRepository(db.model(AnnotationDocument.name, AnnotationSchema) as never);

describe('book queries use indexes on MongoDB', () => {
  it('search by terms, by tag, and both; books of a series', async () => {
    const queries = await captureQueries(async () => {
      await books.search(['春天', 'spring'], undefined);
      await books.search([], '小说');
      await books.search(['春天'], '小说');
      await books.inSeries('9000001');
    });
    expect(queries).toHaveLength(4);
    expect(unindexedQueries(queries)).toEqual([]);
  });

  it("a user's collections with every filter, for the owner and for others; a user's tags", async () => {
    const queries = await captureQueries(async () => {
      await collections.listByUser('100001', { includePrivate: true }, 0, 20);
      await collections.listByUser('100001', { includePrivate: false, status: 'read', tag: '小说', rating: 5, from: new Date(0), to: new Date() }, 20, 20);
      await collections.tagsOfUser('100001', false);
    });
    expect(queries).toHaveLength(5);
    expect(unindexedQueries(queries)).toEqual([]);
  });

  it.each(['collect', 'rank', 'page'] as const)("a book's public annotations in %s order, with and without a page filter", async (order) => {
    const queries = await captureQueries(async () => {
      await annotations.list({ bookId: '1000001', includePrivate: false }, order, 0, 20);
      await annotations.list({ bookId: '1000001', includePrivate: false, pageNo: 12 }, order, 0, 20);
    });
    expect(queries).toHaveLength(4);
    expect(unindexedQueries(queries)).toEqual([]);
  });

  it("a user's annotations, newest change first, for the owner and for others", async () => {
    const queries = await captureQueries(async () => {
      await annotations.list({ authorId: '100001', includePrivate: true }, 'updated', 0, 20);
      await annotations.list({ authorId: '100001', includePrivate: false }, 'updated', 0, 20);
    });
    expect(queries).toHaveLength(4);
    expect(unindexedQueries(queries)).toEqual([]);
  });
});
