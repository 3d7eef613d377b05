import { captureQueries, MONGODB_ENGINE, SEARCH_RESULT_LIMIT, searchQuery, unboundedQueries, unindexedQueries } from '@plaza/service-kit';
import mongoose from 'mongoose';
import { AnnotationDocument, AnnotationSchema } from '../annotations/annotation.schema';
import { AnnotationsRepository } from '../annotations/annotations.repository';
import { BookDocument, BookSchema } from '../books/book.schema';
import { BookTagRankDocument, BookTagRankSchema } from '../books/book-tag-rank.schema';
import { BookTagRanksRepository } from '../books/book-tag-ranks.repository';
import { BooksRepository } from '../books/books.repository';
import { BookLocalEngine } from '../books/local-engine';
import { CollectionDocument, CollectionSchema } from '../collections/collection.schema';
import { CollectionsRepository } from '../collections/collections.repository';
import { UserTagCountDocument, UserTagCountSchema } from '../collections/user-tag-count.schema';
import { UserTagCountsRepository } from '../collections/user-tag-counts.repository';

/**
 * Every list and search query of the book service has an index on MongoDB that also gives its
 * order, and reads no more than its page (docs/ENGINES.md, "What FerretDB v1 does differently, and what the
 * code does about it", and "Search at scale"). FerretDB ignores secondary indexes, so this is where a missing one is
 * caught. See libs/service-kit/src/mongo/index-coverage.ts for the planner rules applied.
 */
const db = new mongoose.Mongoose();
// the MongoDB branch (on the local engine, search and a user's lists are answered in memory)
const local = undefined as unknown as BookLocalEngine;
const tagRanks = new BookTagRanksRepository(db.model(BookTagRankDocument.name, BookTagRankSchema) as never);
const books = new BooksRepository(db.model(BookDocument.name, BookSchema) as never, MONGODB_ENGINE, tagRanks, local);
const tagCounts = new UserTagCountsRepository(db.model(UserTagCountDocument.name, UserTagCountSchema) as never);
const collections = new CollectionsRepository(db.model(CollectionDocument.name, CollectionSchema) as never, MONGODB_ENGINE, tagCounts, local);
const annotations = new AnnotationsRepository(db.model(AnnotationDocument.name, AnnotationSchema) as never, MONGODB_ENGINE, local);

const page = (start = 0, count = 20) => ({ start, count, limit: SEARCH_RESULT_LIMIT });

describe('book queries use indexes on MongoDB', () => {
  it('search by terms, by tag, and both: every tier, counted and paged in the database', async () => {
    // every tier counted 5 matches: a page of 20 reads from each
    const queries = await captureQueries(async () => {
      await books.searchPage(searchQuery('春天 spring', undefined), page());
      await books.searchPage(searchQuery(undefined, '小说'), page());
      await books.searchPage(searchQuery('春天', '小说'), page(0, 100));
    }, { countDocuments: 5 });
    // per q search: the total, then each tier's page, with a count for each but the last
    expect(queries.filter((q) => q.model === BookDocument.name).map((q) => q.op)).toEqual(
      [...Array(2)].flatMap(() => ['countDocuments', 'countDocuments', 'find', 'countDocuments', 'find', 'find']),
    );
    expect(queries.filter((q) => q.model === BookTagRankDocument.name).map((q) => q.op)).toEqual(['countDocuments', 'find']);
    expect(unindexedQueries(queries)).toEqual([]);
    expect(unboundedQueries(queries)).toEqual([]);
    for (const q of queries.filter((c) => c.op === 'countDocuments')) expect(q.limit).toBeLessThanOrEqual(SEARCH_RESULT_LIMIT);
  });

  it('a page of books by id (a search page, a list): one bounded query on `_id`', async () => {
    const queries = await captureQueries(() => books.byIds(['1000001', '1000002', '1000001']));
    expect(queries.map((q) => [q.op, q.filter, q.limit])).toEqual([['find', { _id: { $in: ['1000001', '1000002'] } }, 2]]);
    expect(unindexedQueries(queries)).toEqual([]);
    expect(unboundedQueries(queries)).toEqual([]);
  });

  it("the caller's own entries for a page of books: one bounded query on `_id`", async () => {
    const queries = await captureQueries(() => collections.ofUserForBooks('42', ['1000001', '1000002', '1000001']));
    expect(queries.map((q) => [q.op, q.filter, q.limit])).toEqual([['find', { _id: { $in: ['42:1000001', '42:1000002'] } }, 2]]);
    expect(unindexedQueries(queries)).toEqual([]);
    expect(unboundedQueries(queries)).toEqual([]);
  });

  it('books of a series, a page at a time', async () => {
    const queries = await captureQueries(() => books.inSeries('9000001', 20, 20));
    expect(queries).toHaveLength(2);
    expect(unindexedQueries(queries)).toEqual([]);
    expect(unboundedQueries(queries)).toEqual([]);
  });

  it("a user's collections with every filter, for the owner and for others; a user's tags", async () => {
    const queries = await captureQueries(async () => {
      await collections.listByUser('100001', { includePrivate: true }, 0, 20);
      await collections.listByUser('100001', { includePrivate: false, status: 'read', tag: '小说', rating: 5, from: new Date(0), to: new Date() }, 20, 20);
      await collections.userTags('100001', true, 0, 20);
      await collections.userTags('100001', false, 20, 20);
    });
    expect(queries).toHaveLength(8);
    expect(unindexedQueries(queries)).toEqual([]);
    expect(unboundedQueries(queries)).toEqual([]);
  });

  it.each(['collect', 'rank', 'page'] as const)("a book's public annotations in %s order, with and without a page filter", async (order) => {
    const queries = await captureQueries(async () => {
      await annotations.list({ bookId: '1000001', includePrivate: false }, order, 0, 20);
      await annotations.list({ bookId: '1000001', includePrivate: false, pageNo: 12 }, order, 0, 20);
    });
    expect(queries).toHaveLength(4);
    expect(unindexedQueries(queries)).toEqual([]);
    expect(unboundedQueries(queries)).toEqual([]);
  });

  it("a user's annotations, newest change first, for the owner and for others", async () => {
    const queries = await captureQueries(async () => {
      await annotations.list({ authorId: '100001', includePrivate: true }, 'updated', 0, 20);
      await annotations.list({ authorId: '100001', includePrivate: false }, 'updated', 0, 20);
    });
    expect(queries).toHaveLength(4);
    expect(unindexedQueries(queries)).toEqual([]);
    expect(unboundedQueries(queries)).toEqual([]);
  });
});
