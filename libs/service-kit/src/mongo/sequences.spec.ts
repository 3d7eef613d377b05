import type { Connection } from 'mongoose';
import { Sequences } from './sequences';

/** A `sequences` collection in memory that counts its round trips and can be made to fail. */
function fakeConnection() {
  const values = new Map<string, number>();
  const calls = { inc: [] as number[], fail: false };
  const collection = {
    updateOne: async (filter: { _id: string }, update: { $max: { value: number } }) => {
      await new Promise((r) => setImmediate(r));
      values.set(filter._id, Math.max(values.get(filter._id) ?? -Infinity, update.$max.value));
    },
    findOneAndUpdate: async (filter: { _id: string }, update: { $inc: { value: number } }) => {
      calls.inc.push(update.$inc.value);
      await new Promise((r) => setImmediate(r));
      if (calls.fail) throw new Error('database down');
      const value = (values.get(filter._id) ?? 0) + update.$inc.value;
      values.set(filter._id, value);
      return { _id: filter._id, value };
    },
  };
  return { connection: { collection: () => collection } as unknown as Connection, values, calls };
}

describe('Sequences', () => {
  it('starts past `start` and hands out consecutive ids one by one when asked one at a time', async () => {
    const { connection, calls } = fakeConnection();
    const sequences = new Sequences(connection, 1000);
    expect(await sequences.next('note')).toBe(1000);
    expect(await sequences.next('note')).toBe(1001);
    expect(calls.inc).toEqual([1, 1]);
  });

  it('serves the callers who ask during a draw with one draw, in the order they asked, every id distinct', async () => {
    const { connection, calls } = fakeConnection();
    const sequences = new Sequences(connection, 1000);
    const ids = await Promise.all(Array.from({ length: 50 }, () => sequences.next('collection')));
    expect(ids).toEqual(Array.from({ length: 50 }, (_, i) => 1000 + i));
    // the first caller draws alone; the 49 who came during its draw share the next one
    expect(calls.inc).toEqual([1, 49]);
  });

  it('keeps each name its own counter', async () => {
    const { connection } = fakeConnection();
    const sequences = new Sequences(connection, 1000);
    const [a, b] = await Promise.all([sequences.next('note'), sequences.next('note_comment')]);
    expect([a, b]).toEqual([1000, 1000]);
  });

  it('never hands out an id an import took (atLeast), even with draws waiting', async () => {
    const { connection } = fakeConnection();
    const sequences = new Sequences(connection, 1000);
    await sequences.next('review');
    const raised = sequences.atLeast('review', 5000);
    const ids = await Promise.all([sequences.next('review'), sequences.next('review')]);
    await raised;
    expect(Math.min(...ids)).toBeGreaterThan(5000);
  });

  it('fails every caller of a failed draw, and draws again for the next', async () => {
    const { connection, calls } = fakeConnection();
    const sequences = new Sequences(connection, 1000);
    await sequences.next('note');
    calls.fail = true;
    const failed = await Promise.allSettled([sequences.next('note'), sequences.next('note')]);
    expect(failed.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    calls.fail = false;
    expect(await sequences.next('note')).toBe(1001);
  });
});
