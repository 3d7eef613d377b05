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
