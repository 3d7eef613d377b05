import { GroupCommit } from './group-commit';

const turn = () => new Promise((r) => setImmediate(r));

describe('GroupCommit', () => {
  it('writes a lone call at once, alone', async () => {
    const writes: number[][] = [];
    const group = new GroupCommit<number, number>(async (items) => {
      writes.push(items);
      return items.map((n) => n * 10);
    });
    expect(await group.add(1)).toBe(10);
    expect(await group.add(2)).toBe(20);
    expect(writes).toEqual([[1], [2]]);
  });

  it('puts the calls that arrive during a write into the next one, each answered with its own result', async () => {
    const writes: number[][] = [];
    const group = new GroupCommit<number, number>(async (items) => {
      writes.push(items);
      await turn();
      return items.map((n) => n * 10);
    });
    const first = group.add(1);
    const rest = [2, 3, 4].map((n) => group.add(n));
    expect(await Promise.all([first, ...rest])).toEqual([10, 20, 30, 40]);
    expect(writes).toEqual([[1], [2, 3, 4]]);
  });

  it('fails every call of a failed write and writes the next calls afresh', async () => {
    let fail = true;
    const group = new GroupCommit<number, number>(async (items) => {
      await turn();
      if (fail) throw new Error('database down');
      return items;
    });
    const failed = await Promise.allSettled([group.add(1), group.add(2), group.add(3)]);
    expect(failed.map((r) => r.status)).toEqual(['rejected', 'rejected', 'rejected']);
    fail = false;
    expect(await group.add(4)).toBe(4);
  });
});
