import { captureQueries, MONGODB_ENGINE, unindexedQueries } from '@plaza/service-kit';
import mongoose from 'mongoose';
import { SubjectSearchDocument, SubjectSearchSchema } from './subject-search.schema';
import { SubjectSearchRepository } from './subject-search.repository';

/**
 * Movie search has an index on MongoDB (FerretDB ignores secondary indexes). Every other movie
 * read is by `_id` (subjects, celebrities and their albums are precomputed views); the lists
 * collection holds a dozen documents and is read whole.
 */
const db = new mongoose.Mongoose();
// the MongoDB path (on FerretDB search runs on the in-memory index)
const search = new SubjectSearchRepository(db.model(SubjectSearchDocument.name, SubjectSearchSchema) as never, MONGODB_ENGINE);

describe('movie queries use indexes on MongoDB', () => {
  it('search by terms, by tag, and both', async () => {
    const queries = await captureQueries(async () => {
      await search.matching(['爱', 'love'], undefined);
      await search.matching([], 'drama');
      await search.matching(['爱'], 'drama');
    });
    expect(queries).toHaveLength(3);
    expect(unindexedQueries(queries)).toEqual([]);
  });
});
