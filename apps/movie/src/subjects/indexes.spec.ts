import { captureQueries, MONGODB_ENGINE, SEARCH_RESULT_LIMIT, searchQuery, unboundedQueries, unindexedQueries } from '@plaza/service-kit';
import mongoose from 'mongoose';
import { SubjectSearchDocument, SubjectSearchSchema } from './subject-search.schema';
import { SubjectSearchRepository } from './subject-search.repository';

/**
 * Movie search has an index on MongoDB that gives each tier's order, and reads its page only
 * (FerretDB ignores secondary indexes). Every other movie read is by `_id` (subjects, celebrities
 * and their albums are precomputed views); the lists collection holds a dozen documents and is
 * read whole.
 */
const db = new mongoose.Mongoose();
// the MongoDB branch (on the local engine search runs on the in-memory index)
const search = new SubjectSearchRepository(db.model(SubjectSearchDocument.name, SubjectSearchSchema) as never, MONGODB_ENGINE);
const window = { start: 0, count: 20, limit: SEARCH_RESULT_LIMIT };

describe('movie queries use indexes on MongoDB', () => {
  it('search by terms, by tag, and both: every tier, counted and paged in the database', async () => {
    const queries = await captureQueries(async () => {
      await search.searchPage(searchQuery('爱 love', undefined), window);
      await search.searchPage(searchQuery(undefined, 'drama'), window);
      await search.searchPage(searchQuery('爱', 'drama'), { ...window, limit: 20 });
    }, { countDocuments: 5 });
    expect(queries.map((q) => q.op)).toEqual([
      ...['countDocuments', 'countDocuments', 'find', 'countDocuments', 'find', 'find'],
      ...['countDocuments', 'find'],
      ...['countDocuments', 'countDocuments', 'find', 'countDocuments', 'find', 'find'],
    ]);
    expect(unindexedQueries(queries)).toEqual([]);
    expect(unboundedQueries(queries)).toEqual([]);
  });
});
