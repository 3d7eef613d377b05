import { BookDocument } from './book.schema';
import { DatabaseEngine } from '@plaza/service-kit';
import { movedBy, UserAggregates } from '../common/contributions';
import { AggregateDelta, applyDelta, BooksRepository, CatalogueFields } from './books.repository';
import { BookTagRanksRepository } from './book-tag-ranks.repository';
import { BookLocalEngine } from './local-engine';
import { tagKey } from './book-view';

const book = (extra: Partial<BookDocument> = {}): BookDocument =>
  ({ _id: '1', title: 't', base_tags: [{ name: 'Poetry', count: 2 }], user_rating: { num: 1, sum: 8 }, user_tags: { [tagKey('旧')]: 1 }, tag_keys: [], rev: 3, ...extra }) as BookDocument;

describe('applying users\' aggregates to a book', () => {
  it('adds raters, rating sum and tag counts, and recomputes the tag search keys', () => {
    const next = applyDelta(book(), { raters: 1, ratingSum: 6, tags: new Map([['新', 1], ['旧', 1]]) });
    expect(next.user_rating).toEqual({ num: 2, sum: 14 });
    expect(next.user_tags).toEqual({ [tagKey('旧')]: 2, [tagKey('新')]: 1 });
    expect(next.tag_keys).toEqual(['poetry', '旧', '新']);
    expect(next.search_rank).toBe(applyDelta(book(), { raters: 1, ratingSum: 0, tags: new Map() }).search_rank);
    expect(next.rev).toBe(3);
  });

  it('drops a users\' tag whose count falls to 0 (and its search key)', () => {
    const next = applyDelta(book(), { raters: -1, ratingSum: -8, tags: new Map([['旧', -1]]) });
    expect(next.user_rating).toEqual({ num: 0, sum: 0 });
    expect(next.user_tags).toEqual({});
    expect(next.tag_keys).toEqual(['poetry']);
  });
});

describe('group commit of users\' aggregates', () => {
  /** An in-memory stand-in for the model's driver collection: each command takes a while, like FerretDB's. */
  function fakeModel(initial: BookDocument) {
    let stored: BookDocument | null = { ...initial };
    const writes: BookDocument[] = [];
    const later = <T>(value: () => T) => new Promise<T>((resolve) => setTimeout(() => resolve(value()), 5));
    const collection = {
      findOne: (): Promise<BookDocument | null> => later(() => (stored ? structuredClone(stored) : null)),
      replaceOne: (filter: { _id: string; rev?: number | { $in: Array<number | null> } }, doc: BookDocument) =>
        later(() => {
          const want = filter.rev;
          const revMatches = want === undefined || (typeof want === 'object' ? want.$in.includes(stored?.rev ?? null) : want === stored?.rev);
          if (!stored || !revMatches) return { matchedCount: 0 };
          stored = structuredClone(doc);
          writes.push(stored);
          return { matchedCount: 1 };
        }),
    };
    const model = {
      collection,
      get stored() {
        return stored;
      },
      writes,
    };
    return model;
  }

  /** The local engine's views and users' aggregates: a new view for each write, as its search index makes. */
  const localViews = () => {
    const views = new Map<string, BookDocument>();
    const aggregates = new Map<string, UserAggregates>();
    const withUserAggregates = (doc: BookDocument) => {
      const { num, sum, tags } = aggregates.get(doc._id) ?? { num: 0, sum: 0, tags: {} };
      return { ...doc, user_rating: { num, sum }, user_tags: tags };
    };
    return {
      userAggregatesReady: async () => undefined,
      withUserAggregates,
      applyUserAggregates: (id: string, delta: AggregateDelta) => void aggregates.set(id, movedBy(aggregates.get(id) ?? { num: 0, sum: 0, tags: {} }, delta)),
      aggregateVersion: () => 0,
      bookWritten: (doc: BookDocument) => void views.set(doc._id, withUserAggregates(doc)),
      heldView: (id: string) => views.get(id),
    };
  };

  const repositoryWith = (model: unknown, ferretDb: boolean, local = localViews()) =>
    new BooksRepository(
      model as never,
      DatabaseEngine.fixed(ferretDb ? 'local' : 'mongodb'),
      { sync: async () => undefined, resync: async () => 0 } as unknown as BookTagRanksRepository,
      local as unknown as BookLocalEngine,
    );

  it('on the local engine, moves the aggregates it holds and writes no book; the book it answers, and holds, carries them', async () => {
    const model = fakeModel(book({ user_rating: { num: 0, sum: 0 }, user_tags: {}, rev: 0 }));
    const local = localViews();
    const repository = repositoryWith(model, true, local);
    const results = await Promise.all(Array.from({ length: 50 }, (_, i) => repository.applyUserAggregates('1', { raters: 1, ratingSum: 2 * ((i % 5) + 1), tags: new Map([['共', 1]]) })));
    expect(model.writes).toEqual([]);
    expect(results[49]?.user_rating).toEqual({ num: 50, sum: 10 * (2 + 4 + 6 + 8 + 10) });
    expect(local.heldView('1')).toMatchObject({ user_rating: { num: 50, sum: 300 }, user_tags: { [tagKey('共')]: 50 } });
    expect(results[49]).toBe(local.heldView('1'));
  });

  it('on MongoDB, applies 50 concurrent ratings exactly once each, in a few writes', async () => {
    const model = fakeModel(book({ user_rating: { num: 0, sum: 0 }, user_tags: {}, rev: 0 }));
    const repository = repositoryWith(model, false);
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) => repository.applyUserAggregates('1', { raters: 1, ratingSum: 2 * ((i % 5) + 1), tags: new Map([['共', 1]]) })),
    );
    expect(model.stored?.user_rating).toEqual({ num: 50, sum: 10 * (2 + 4 + 6 + 8 + 10) });
    expect(model.stored?.user_tags).toEqual({ [tagKey('共')]: 50 });
    expect(model.writes.length).toBeLessThanOrEqual(3);
    expect(model.stored?.rev).toBe(model.writes.length);
    // every caller sees a book that includes its own change
    for (const doc of results) expect(doc?.user_rating.num).toBeGreaterThanOrEqual(1);
    expect(results[49]?.user_rating.num).toBe(50);
  });

  it('on MongoDB, retries when another instance changed the book between read and write', async () => {
    const model = fakeModel(book({ user_rating: { num: 5, sum: 40 }, user_tags: {}, rev: 7 }));
    const read = model.collection.findOne;
    let interfered = false;
    model.collection.findOne = () => {
      const result = read();
      if (!interfered) {
        interfered = true;
        // another instance writes after our read: rating +1 (2r = 10), rev 8
        setTimeout(() => {
          const other = model.stored as BookDocument;
          other.user_rating = { num: other.user_rating.num + 1, sum: other.user_rating.sum + 10 };
          other.rev = 8;
        }, 1);
      }
      return result;
    };
    const doc = await repositoryWith(model, false).applyUserAggregates('1', { raters: 1, ratingSum: 4, tags: new Map() });
    expect(doc?.user_rating).toEqual({ num: 7, sum: 54 });
    expect(model.stored?.rev).toBe(9);
  });

  it.each([[true], [false]])('stores the search fields and users\' aggregates with the book on MongoDB only; the local engine holds the aggregates (FerretDB: %s)', async (ferretDb) => {
    const model = fakeModel(book({ author: ['Ada Lovelace'], user_rating: { num: 0, sum: 0 }, user_tags: {}, rev: 0 }));
    const local = localViews();
    const repository = repositoryWith(model, ferretDb, local);
    const rated = await repository.applyUserAggregates('1', { raters: 1, ratingSum: 8, tags: new Map([['诗', 1]]) });
    await repository.upsertCatalogue('1', { title: 't', author: ['Ada Lovelace', 'Byron'], base_tags: [{ name: 'Poetry', count: 2 }] } as unknown as CatalogueFields);
    const stored = model.stored as BookDocument;
    if (ferretDb) {
      expect([stored.search_terms, stored.title_terms, stored.title_keys, stored.tag_keys, stored.search_rank]).toEqual([[], [], [], [], '']);
      expect([stored.user_rating, stored.user_tags]).toEqual([{ num: 0, sum: 0 }, {}]);
      expect(local.heldView('1')).toMatchObject({ author: ['Ada Lovelace', 'Byron'], user_rating: { num: 1, sum: 8 }, user_tags: { [tagKey('诗')]: 1 } });
    } else {
      expect(stored.user_rating).toEqual({ num: 1, sum: 8 });
      expect(stored.search_terms).toEqual(expect.arrayContaining(['t', 'ada', 'lovelace', 'byron']));
      expect(stored.tag_keys).toEqual(['poetry', '诗']);
    }
    expect(rated?.user_rating).toEqual({ num: 1, sum: 8 });
  });

  it.each([[true], [false]])('writes nothing when an import brings the record the book was stored from (FerretDB: %s)', async (ferretDb) => {
    const fields = { title: 't', author: ['Ada'], base_tags: [{ name: 'Poetry', count: 2 }] } as unknown as CatalogueFields;
    const model = fakeModel(book());
    const repository = repositoryWith(model, ferretDb);
    // the first import of the record replaces the stand-in document; the same record again is the same book
    await repository.upsertCatalogue('1', fields);
    const writes = model.writes.length;
    await repository.upsertCatalogue('1', fields);
    expect(model.writes.length).toBe(writes);
    await repository.upsertCatalogue('1', { ...fields, author: ['Ada', 'Byron'] });
    expect(model.writes.length).toBe(writes + 1);
  });

  it('answers null for a book that does not exist', async () => {
    const model = fakeModel(book());
    model.collection.findOne = async () => null;
    expect(await repositoryWith(model, true).applyUserAggregates('1', { raters: 1, ratingSum: 2, tags: new Map() })).toBeNull();
  });
});
