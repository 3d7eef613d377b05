import type { Connection } from 'mongoose';
import { ExportStep, readExportPage } from './export-pages';

/** A collection in memory that answers find().sort({_id: 1}).limit(n) like the drivers do, for the filters export uses. */
function fakeConnection(collections: Record<string, Array<Record<string, unknown>>>): Connection {
  const matches = (doc: Record<string, unknown>, filter: Record<string, unknown>): boolean =>
    Object.entries(filter).every(([key, cond]) => {
      if (key === '$and') return (cond as Array<Record<string, unknown>>).every((f) => matches(doc, f));
      if (cond && typeof cond === 'object' && '$gt' in cond) return (doc[key] as string | number) > ((cond as { $gt: string | number }).$gt);
      return doc[key] === cond;
    });
  return {
    collection: (name: string) => ({
      find: (filter: Record<string, unknown>) => ({
        sort: () => ({
          limit: (n: number) => ({
            toArray: async () =>
              (collections[name] ?? [])
                .filter((d) => matches(d, filter))
                .sort((a, b) => ((a._id as string) < (b._id as string) ? -1 : 1))
                .slice(0, n),
          }),
        }),
      }),
    }),
  } as unknown as Connection;
}

const steps = (userId: string): ExportStep[] => [
  { collection: 'a', filter: { user_id: userId }, toRecord: (d) => ({ record: { kind: 'a', id: d._id } }) },
  { collection: 'b', filter: { _id: userId }, toRecord: (d) => ({ record: { kind: 'b', id: d._id }, pictures: [{ key: 'note-x', format: 'png', file: 'pictures/note-x.png' }] }) },
];

describe('readExportPage (docs/api/export.md)', () => {
  const connection = fakeConnection({
    a: ['1', '2', '3', '4', '5'].map((id) => ({ _id: id, user_id: id === '3' ? 'someone else' : 'u1' })),
    b: [{ _id: 'u0' }, { _id: 'u1' }, { _id: 'u2' }],
  });

  it('walks every step in _id order, a page at a time, with the user\'s records alone', async () => {
    const seen: unknown[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await readExportPage(connection, steps('u1'), { user_id: '1', limit: 2, ...(cursor ? { cursor } : {}) });
      expect(page.records.length).toBeLessThanOrEqual(2);
      seen.push(...page.records.map((r) => `${r.kind}:${String(r.id)}`));
      cursor = page.next;
      pages++;
    } while (cursor !== undefined && pages < 20);
    expect(seen).toEqual(['a:1', 'a:2', 'a:4', 'a:5', 'b:u1']);
  });

  it('keeps a step\'s own _id filter when the cursor adds one', async () => {
    const first = await readExportPage(connection, steps('u1'), { user_id: '1', limit: 1, cursor: '1' });
    expect(first.records).toEqual([{ kind: 'b', id: 'u1' }]);
    expect(first.pictures).toHaveLength(1);
    const after = await readExportPage(connection, steps('u1'), { user_id: '1', limit: 1, cursor: first.next });
    expect(after.records).toEqual([]);
    expect(after.next).toBeUndefined();
  });

  it('answers an empty last page for a cursor past the steps or one it did not write', async () => {
    expect(await readExportPage(connection, steps('u1'), { user_id: '1', cursor: '7' })).toEqual({ records: [], pictures: [] });
    expect(await readExportPage(connection, steps('u1'), { user_id: '1', cursor: '0.e30' })).toEqual({ records: [], pictures: [] });
  });
});
