import { BookDocument } from './book.schema';
import { bookTagRanks } from './book-search';
import { BookTagRanksRepository } from './book-tag-ranks.repository';
import { tagKey, tagSearchKey } from './book-view';

const book = (userTags: Record<string, number>, rev: number) =>
  ({ _id: '42', title: 't', base_tags: [], user_tags: Object.fromEntries(Object.entries(userTags).map(([n, c]) => [tagKey(n), c])), rev }) as unknown as BookDocument;

describe("re-syncing a book's tag ranks from the book", () => {
  it('writes only the documents that differ, never over a newer revision, and nothing the second time', async () => {
    const doc = book({ 新: 3, 好: 1 }, 5);
    const ranks = bookTagRanks(doc);
    // `新` is stale (a write died before its sync), `旧` left live, `好` missing; `别` is from a newer revision
    const have = [
      { _id: `42|${tagSearchKey('新')}`, book_id: '42', tag: tagSearchKey('新'), rank: 'stale', live: true, rev: 4 },
      { _id: `42|${tagSearchKey('旧')}`, book_id: '42', tag: tagSearchKey('旧'), rank: 'x', live: true, rev: 4 },
      { _id: `42|${tagSearchKey('别')}`, book_id: '42', tag: tagSearchKey('别'), rank: 'y', live: true, rev: 6 },
    ];
    const writes: Array<{ updateOne: { filter: { _id: string }; update: { $set: Record<string, unknown> } } }> = [];
    const model = { find: () => ({ lean: () => ({ exec: async () => have }) }), bulkWrite: async (ops: typeof writes) => writes.push(...ops) };
    const repository = new BookTagRanksRepository(model as never);
    expect(await repository.resync(doc, false)).toBe(3);
    expect(writes).toEqual([]);
    expect(await repository.resync(doc)).toBe(3);
    expect(Object.fromEntries(writes.map((w) => [w.updateOne.filter._id, w.updateOne.update.$set]))).toEqual({
      [`42|${tagSearchKey('新')}`]: { rank: ranks.get(tagSearchKey('新')), live: true, rev: 5 },
      [`42|${tagSearchKey('旧')}`]: { live: false, rev: 5 },
      [`42|${tagSearchKey('好')}`]: { book_id: '42', tag: tagSearchKey('好'), rank: ranks.get(tagSearchKey('好')), live: true, rev: 5 },
    });
    have.splice(0, 2, { ...have[0], rank: ranks.get(tagSearchKey('新')) as string, rev: 5 }, { ...have[1], live: false, rev: 5 }, { _id: `42|${tagSearchKey('好')}`, book_id: '42', tag: tagSearchKey('好'), rank: ranks.get(tagSearchKey('好')) as string, live: true, rev: 5 });
    expect(await repository.resync(doc)).toBe(0);
  });
});
