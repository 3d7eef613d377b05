import { DatabaseEngine } from '@plaza/service-kit';
import { BookLocalEngine } from '../books/local-engine';
import { CollectionDocument } from './collection.schema';
import { CollectionsRepository } from './collections.repository';
import { UserTagCountsRepository } from './user-tag-counts.repository';

const entry = (extra: Partial<CollectionDocument> = {}): CollectionDocument => ({
  _id: 'u1:b1', id: 1001, user_id: 'u1', book_id: 'b1', status: 'wish', tags: [], comment: '', private: false,
  created: new Date(0), updated: new Date(0), rev: 0, ...extra,
});

/** The local engine's entries held in memory, and a driver collection whose writes fail after (or before) applying. */
function setup() {
  const held = new Map<string, CollectionDocument>();
  const database = new Map<string, CollectionDocument>();
  const local = {
    entries: async (keys: string[]) => keys.flatMap((k) => (held.has(k) ? [held.get(k) as CollectionDocument] : [])),
    entryWritten: (doc: CollectionDocument) => void held.set(doc._id, doc),
    entryRemoved: (key: string) => void held.delete(key),
  };
  const collection = {
    applyThenFail: false,
    findOne: async (filter: { _id: string }) => database.get(filter._id) ?? null,
    insertOne: async (doc: CollectionDocument) => {
      if (database.has(doc._id)) throw Object.assign(new Error('duplicate key'), { code: 11000 });
      database.set(doc._id, doc);
      if (collection.applyThenFail) throw new Error('connection reset');
      return { acknowledged: true };
    },
    replaceOne: async (filter: { _id: string }, doc: CollectionDocument) => {
      database.set(filter._id, doc);
      if (collection.applyThenFail) throw new Error('connection reset');
      return { matchedCount: 1 };
    },
  };
  const repository = new CollectionsRepository(
    { collection } as never,
    DatabaseEngine.fixed('local'),
    {} as UserTagCountsRepository,
    local as unknown as BookLocalEngine,
  );
  return { repository, held, database, collection };
}

describe('CollectionsRepository on the local engine', () => {
  it('starts a write from the entry held in memory, and keeps it current after the write', async () => {
    const { repository, held, database } = setup();
    expect(await repository.insert(entry())).toBe(true);
    const found = await repository.find('u1', 'b1');
    expect(found).toEqual(database.get('u1:b1'));
    expect(await repository.replace(found as CollectionDocument, { ...entry(), status: 'read' })).toBe(true);
    expect(held.get('u1:b1')).toMatchObject({ status: 'read', rev: 1 });
  });

  it('reads the entry back when a write command failed though the database applied it', async () => {
    const { repository, held, collection } = setup();
    await repository.insert(entry());
    collection.applyThenFail = true;
    await expect(repository.replace(held.get('u1:b1') as CollectionDocument, { ...entry(), status: 'read' })).rejects.toThrow('connection reset');
    // the next write starts from what the database has, not from the copy before the failure
    expect(held.get('u1:b1')).toMatchObject({ status: 'read', rev: 1 });
  });

  it('refuses an insert the database already has and catches up with it', async () => {
    const { repository, held, database } = setup();
    database.set('u1:b1', entry({ status: 'reading' }));
    expect(await repository.insert(entry())).toBe(false);
    expect(held.get('u1:b1')).toMatchObject({ status: 'reading' });
  });
});
