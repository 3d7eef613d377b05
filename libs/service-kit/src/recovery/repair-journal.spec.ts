import { ApiError } from '@plaza/contracts';
import type { Connection } from 'mongoose';
import { REMOVAL_BATCH_MS, RepairEntry, RepairJournal } from './repair-journal';

/** A journal collection in memory, on an engine that is a replica set or not. */
function fakeConnection(replicaSet = false) {
  const docs = new Map<string, RepairEntry>();
  const inserts: number[] = [];
  const deletes: number[] = [];
  const collection = {
    insertMany: async (batch: RepairEntry[]) => {
      inserts.push(batch.length);
      await new Promise((r) => setImmediate(r));
      for (const doc of batch) docs.set(doc._id, { ...doc });
    },
    find: () => ({ toArray: async () => [...docs.values()].map((d) => ({ ...d })) }),
    deleteMany: async (filter: { _id: { $in: string[] } }) => {
      deletes.push(filter._id.$in.length);
      filter._id.$in.forEach((id) => docs.delete(id));
    },
  };
  const connection = {
    collection: () => collection,
    db: { admin: () => ({ command: async () => (replicaSet ? { setName: 'rs0' } : { isWritablePrimary: true }) }) },
  } as unknown as Connection;
  return { connection, docs, inserts, deletes };
}

const settle = () => new Promise((r) => setImmediate(r));

describe('RepairJournal', () => {
  it('writes an entry before the work and removes it after, off the answer path', async () => {
    const { connection, docs } = fakeConnection();
    const journal = new RepairJournal(connection, 'repairs');
    const seen: number[] = [];
    const result = await journal.run(['note:1'], async () => {
      seen.push(docs.size);
      return 'done';
    }, ['note-abc']);
    expect(result).toBe('done');
    expect(seen).toEqual([1]);
    await journal.flush();
    await settle();
    expect(docs.size).toBe(0);
  });

  it('inserts the entries of writes that start while one is being inserted together, each before its own work', async () => {
    const { connection, docs, inserts } = fakeConnection();
    const journal = new RepairJournal(connection, 'repairs');
    const seen: boolean[] = [];
    const writes = Array.from({ length: 5 }, (_, i) => journal.run([`note:${i}`], async () => {
      seen.push([...docs.values()].some((e) => e.targets[0] === `note:${i}`));
    }));
    await Promise.all(writes);
    expect(seen).toEqual([true, true, true, true, true]);
    // the first alone, the four that came during its insert in one command
    expect(inserts).toEqual([1, 4]);
    await journal.flush();
  });

  it('removes the entries of the writes that finish within the batch window with one delete, after it', async () => {
    jest.useFakeTimers({ doNotFake: ['setImmediate', 'nextTick'] });
    try {
      const { connection, docs, deletes } = fakeConnection();
      const journal = new RepairJournal(connection, 'repairs');
      await Promise.all([journal.run(['note:1'], async () => undefined), journal.run(['note:2'], async () => undefined)]);
      await jest.advanceTimersByTimeAsync(REMOVAL_BATCH_MS / 2);
      await journal.run(['note:3'], async () => undefined);
      expect(deletes).toEqual([]);
      expect(docs.size).toBe(3);
      await jest.advanceTimersByTimeAsync(REMOVAL_BATCH_MS / 2);
      expect(deletes).toEqual([3]);
      expect(docs.size).toBe(0);
    } finally {
      jest.useRealTimers();
    }
  });

  it('writes the removals due at once when flushed (shutdown)', async () => {
    const { connection, docs, deletes } = fakeConnection();
    const journal = new RepairJournal(connection, 'repairs');
    await journal.run(['note:1'], async () => undefined);
    const started = Date.now();
    await journal.flush();
    expect(Date.now() - started).toBeLessThan(REMOVAL_BATCH_MS);
    expect(deletes).toEqual([1]);
    expect(docs.size).toBe(0);
  });

  it('keeps the entry of a write that failed, and the sweep repairs its targets once and removes it', async () => {
    const { connection, docs } = fakeConnection();
    const journal = new RepairJournal(connection, 'repairs');
    await expect(journal.run(['note:1', 'note:2'], async () => { throw new Error('database down'); }, ['k1'])).rejects.toThrow('database down');
    await expect(journal.run(['note:1'], async () => { throw new Error('again'); }, ['k2'])).rejects.toThrow('again');
    expect(docs.size).toBe(2);
    const repaired: Array<[string, string[], boolean]> = [];
    const result = await journal.sweep(async (target, keys, settled) => void repaired.push([target, keys.sort(), settled]));
    expect(repaired.sort()).toEqual([['note:1', ['k1', 'k2'], true], ['note:2', ['k1'], true]]);
    expect(result).toEqual({ entries: 2, repaired: 2, failed: 0, removed: 2 });
    expect(docs.size).toBe(0);
  });

  it('does not count a finished write whose removal is still pending as open', async () => {
    const { connection } = fakeConnection();
    const journal = new RepairJournal(connection, 'repairs');
    await journal.run(['note:1'], async () => undefined);
    // the removal goes after the answer: until it is written the entry is there, but not open
    expect(await journal.openTargets()).toEqual(new Set());
    await journal.flush();
  });

  it('treats a refusal (ApiError) as finished', async () => {
    const { connection, docs } = fakeConnection();
    const journal = new RepairJournal(connection, 'repairs');
    await expect(journal.run(['note:1'], async () => { throw new ApiError('target_not_found'); })).rejects.toThrow();
    await journal.flush();
    expect(docs.size).toBe(0);
  });

  it('leaves alone the writes this process still runs', async () => {
    const { connection } = fakeConnection();
    const journal = new RepairJournal(connection, 'repairs');
    let release!: () => void;
    let started!: () => void;
    const begun = new Promise<void>((r) => (started = r));
    const running = journal.run(['note:1'], () => new Promise<void>((r) => {
      release = r;
      started();
    }));
    await begun;
    const repaired: string[] = [];
    expect(await journal.sweep(async (t) => void repaired.push(t))).toMatchObject({ entries: 0, repaired: 0 });
    expect(repaired).toEqual([]);
    release();
    await running;
  });

  it("repairs an entry of a process that is gone at once when the engine runs one instance", async () => {
    const { connection, docs } = fakeConnection(false);
    docs.set('x', { _id: 'x', targets: ['note:9'], owner: 'host:1:dead', created: new Date() });
    const journal = new RepairJournal(connection, 'repairs');
    const repaired: Array<[string, boolean]> = [];
    await journal.sweep(async (t, _k, settled) => void repaired.push([t, settled]));
    expect(repaired).toEqual([['note:9', true]]);
    expect(docs.size).toBe(0);
  });

  it("on a replica set, another owner's recent entry is repaired only as unsettled and kept until the grace period passed", async () => {
    const { connection, docs } = fakeConnection(true);
    let now = 1_000_000;
    docs.set('x', { _id: 'x', targets: ['note:9'], owner: 'other:1:live', created: new Date(now) });
    const journal = new RepairJournal(connection, 'repairs', 120_000, () => now);
    const repaired: Array<[string, boolean]> = [];
    await journal.sweep(async (t, _k, settled) => void repaired.push([t, settled]));
    expect(repaired).toEqual([['note:9', false]]);
    expect(docs.size).toBe(1);
    now += 120_000;
    await journal.sweep(async (t, _k, settled) => void repaired.push([t, settled]));
    expect(repaired[1]).toEqual(['note:9', true]);
    expect(docs.size).toBe(0);
  });

  it('keeps the entries whose repair failed, for the next sweep', async () => {
    const { connection, docs } = fakeConnection();
    docs.set('x', { _id: 'x', targets: ['note:9'], owner: 'gone', created: new Date() });
    const journal = new RepairJournal(connection, 'repairs');
    expect(await journal.sweep(async () => { throw new Error('still down'); })).toMatchObject({ failed: 1, removed: 0 });
    expect(docs.size).toBe(1);
  });
});
