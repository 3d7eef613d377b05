import { changeFields, createOrChange } from './store';

/** A stand-in for a driver collection: insert by `_id` (a duplicate is E11000), read by `_id`, `$set` by `_id`. */
function fakeCollection() {
  const docs = new Map<string, Record<string, unknown>>();
  const writes: string[] = [];
  const collection = {
    insertOne: async (doc: Record<string, unknown>) => {
      if (docs.has(doc._id as string)) throw Object.assign(new Error('E11000'), { code: 11000 });
      writes.push('insert');
      docs.set(doc._id as string, structuredClone(doc));
    },
    findOne: async (filter: { _id: string }) => structuredClone(docs.get(filter._id) ?? null),
    updateOne: async (filter: { _id: string }, update: { $set: Record<string, unknown> }) => {
      const doc = docs.get(filter._id);
      if (!doc) return { matchedCount: 0 };
      writes.push('update');
      docs.set(filter._id, { ...doc, ...structuredClone(update.$set) });
      return { matchedCount: 1 };
    },
  };
  return { collection: collection as never, read: (id: string) => collection.findOne({ _id: id }), docs, writes };
}

const byId = async (id: string) => ({ _id: id });

describe('createOrChange and changeFields', () => {
  it('return the document as the database now holds it, so a held copy needs no read back', async () => {
    const { collection, read, docs, writes } = fakeCollection();
    type View = { _id: string; rev?: number; title: string; photos: string[]; note?: string };
    const created = await createOrChange<View>(collection, () => ({ _id: 's1', title: 'A', photos: [], note: undefined }), () => ({}), byId);
    expect(created.stored).toEqual(docs.get('s1'));
    expect(created.stored).toEqual({ _id: 's1', title: 'A', photos: [], rev: 0 });

    const changed = await createOrChange<View>(collection, () => ({ _id: 's1', title: 'B', photos: [] }), () => ({ title: 'B', note: 'new' }), byId);
    expect(changed.stored).toEqual(docs.get('s1'));
    expect(changed.stored).toEqual({ _id: 's1', title: 'B', photos: [], rev: 1, note: 'new' });
    // the same fields again: nothing written, the document as it was
    const unchanged = await createOrChange<View>(collection, () => ({ _id: 's1', title: 'B', photos: [] }), () => ({ title: 'B' }), byId);
    expect(unchanged.stored).toEqual(docs.get('s1'));
    expect(writes).toEqual(['insert', 'update']);

    const rebuilt = await changeFields<View>(collection, async () => (await read('s1')) as View | null, () => ({ photos: ['p1', 'p2'] }), byId);
    expect(rebuilt).toEqual(docs.get('s1'));
    expect(rebuilt?.rev).toBe(2);
    expect(await changeFields<View>(collection, async () => null, () => ({ photos: [] }), byId)).toBeNull();
  });
});
