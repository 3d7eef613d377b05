import { Model, Schema } from 'mongoose';
import { captureQueries, indexPlanFor } from '../mongo/index-coverage';
import { OrderedSegment, pageOfSegments, rankedSearchPage, searchQuery } from './ranked-search';

/** A stand-in for a model holding `ids` in order: counts and finds, recording what each read asked. */
function segmentOf(ids: string[], reads: string[]): OrderedSegment {
  const model = {
    countDocuments: () => ({ limit: (n: number) => ({ exec: async () => (reads.push(`count ${n}`), Math.min(ids.length, n)) }) }),
    find: () => {
      let skip = 0;
      const chain = {
        sort: () => chain,
        skip: (n: number) => ((skip = n), chain),
        limit: (n: number) => ({ lean: () => ({ exec: async () => (reads.push(`find ${skip}+${n}`), ids.slice(skip, skip + n).map((_id) => ({ _id }))) }) }),
      };
      return chain;
    },
  };
  return { model: model as unknown as Model<never>, filter: {}, sort: { search_rank: 1 } };
}

describe('pageOfSegments', () => {
  const tiers = (reads: string[]) => [segmentOf(['a1', 'a2'], reads), segmentOf(['b1', 'b2', 'b3'], reads), segmentOf(['c1', 'c2', 'c3', 'c4'], reads)];
  const total = async () => 9;

  it('reads the page across segments, counting each only as far as the page needs', async () => {
    const reads: string[] = [];
    expect(await pageOfSegments(tiers(reads), total, { start: 1, count: 5, limit: 1000 })).toEqual({ total: 9, ids: ['a2', 'b1', 'b2', 'b3', 'c1'] });
    expect(reads).toEqual(['count 6', 'find 1+1', 'count 4', 'find 0+3', 'find 0+1']);
  });

  it('skips the segments before the page without reading them', async () => {
    const reads: string[] = [];
    expect((await pageOfSegments(tiers(reads), total, { start: 6, count: 2, limit: 1000 })).ids).toEqual(['c2', 'c3']);
    expect(reads).toEqual(['count 8', 'count 6', 'find 1+2']);
  });

  it('stops at the limit: total at most the limit, nothing past it', async () => {
    const reads: string[] = [];
    expect(await pageOfSegments(tiers(reads), total, { start: 3, count: 10, limit: 4 })).toEqual({ total: 4, ids: ['b2'] });
    expect(await pageOfSegments(tiers([]), total, { start: 4, count: 10, limit: 4 })).toEqual({ total: 4, ids: [] });
    expect(await pageOfSegments(tiers([]), total, { start: 0, count: 0, limit: 1000 })).toEqual({ total: 9, ids: [] });
  });
});

describe('rankedSearchPage', () => {
  it('asks nothing for a query without terms', async () => {
    const queries = await captureQueries(() => rankedSearchPage({} as Model<never>, searchQuery('...', undefined), { start: 0, count: 20, limit: 1000 }));
    expect(queries).toEqual([]);
  });

  it('gives each tier an index that also gives its order', () => {
    const schema = new Schema({ search_terms: [String], title_terms: [String], title_keys: [String], tag_keys: [String], search_rank: String });
    schema.index({ search_terms: 1, search_rank: 1 });
    schema.index({ title_terms: 1, search_rank: 1 });
    schema.index({ title_keys: 1, search_rank: 1 });
    const all = { $all: ['a', 'b'] };
    expect(indexPlanFor(schema, { title_keys: 'a b', search_terms: all }, { search_rank: 1 })).toBeDefined();
    expect(indexPlanFor(schema, { title_terms: all, title_keys: { $ne: 'a b' } }, { search_rank: 1 })).toBeDefined();
    expect(indexPlanFor(schema, { search_terms: all, title_terms: { $not: all }, tag_keys: 't' }, { search_rank: 1 })).toBeDefined();
  });
});
