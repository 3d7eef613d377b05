import { UserTagCountsRepository } from './user-tag-counts.repository';

/** The `$inc`s one entry change sends, by tag. */
async function incsOf(before: object | undefined, after: object | undefined): Promise<Record<string, { all: number; public: number }>> {
  const writes: Array<Array<{ updateOne: { filter: { _id: string }; update: { $inc: { all: number; public: number } } } }>> = [];
  const repository = new UserTagCountsRepository({ bulkWrite: async (ops: never) => writes.push(ops) } as never);
  await repository.apply(before as never, after as never);
  return Object.fromEntries((writes[0] ?? []).map((op) => [op.updateOne.filter._id, op.updateOne.update.$inc]));
}

const entry = (tags: string[], privateEntry = false) => ({ user_id: '7', tags, private: privateEntry });

describe("a user's tag counts", () => {
  it('count a new entry, public or private', async () => {
    expect(await incsOf(undefined, entry(['a', 'b', 'a']))).toEqual({ '7|a': { all: 1, public: 1 }, '7|b': { all: 1, public: 1 } });
    expect(await incsOf(undefined, entry(['a'], true))).toEqual({ '7|a': { all: 1, public: 0 } });
  });

  it('move only what a change moved: retagging, making private, deleting', async () => {
    expect(await incsOf(entry(['a', 'b']), entry(['b', 'c']))).toEqual({ '7|a': { all: -1, public: -1 }, '7|c': { all: 1, public: 1 } });
    expect(await incsOf(entry(['a']), entry(['a'], true))).toEqual({ '7|a': { all: 0, public: -1 } });
    expect(await incsOf(entry(['a'], true), undefined)).toEqual({ '7|a': { all: -1, public: 0 } });
    expect(await incsOf(entry(['a']), entry(['a']))).toEqual({});
  });
});

describe("repairing a user's tag counts from their entries", () => {
  const query = <T>(docs: T[]) => ({ lean: () => ({ exec: async () => docs }) });

  it('sets each count that differs over the value it read, and reports the drift; none when they agree', async () => {
    const entries = [entry(['a', 'b']), entry(['a'], true)];
    // `a` was left one short by a write that died before its $inc; `c` counts an entry that is gone
    let stored = [{ _id: '7|a', user_id: '7', tag: 'a', all: 1, public: 1 }, { _id: '7|b', user_id: '7', tag: 'b', all: 1, public: 1 }, { _id: '7|c', user_id: '7', tag: 'c', all: 1, public: 0 }];
    const writes: unknown[] = [];
    const counts = { find: () => query(stored), bulkWrite: async (ops: unknown[]) => (writes.push(...ops), { matchedCount: ops.length, upsertedCount: 0 }) };
    const repository = new UserTagCountsRepository(counts as never, { find: () => query(entries) } as never);
    const drift = await repository.correct('7');
    expect(drift?.source).toEqual({ a: { all: 2, public: 1 }, b: { all: 1, public: 1 } });
    expect(writes).toEqual([
      { updateOne: { filter: { _id: '7|a', all: 1, public: 1 }, update: { $set: { all: 2, public: 1 }, $setOnInsert: { user_id: '7', tag: 'a' } }, upsert: false } },
      { updateOne: { filter: { _id: '7|c', all: 1, public: 0 }, update: { $set: { all: 0, public: 0 }, $setOnInsert: { user_id: '7', tag: 'c' } }, upsert: false } },
    ]);
    stored = [{ _id: '7|a', user_id: '7', tag: 'a', all: 2, public: 1 }, { _id: '7|b', user_id: '7', tag: 'b', all: 1, public: 1 }, { _id: '7|c', user_id: '7', tag: 'c', all: 0, public: 0 }];
    expect(await repository.correct('7')).toBeNull();
  });
});
