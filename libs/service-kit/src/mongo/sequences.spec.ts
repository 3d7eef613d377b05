import type { Connection } from 'mongoose';
import { IDS_AHEAD, Sequences } from './sequences';

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
    const sequences = new Sequences(connection, { start: 1000 });
    expect(await sequences.next('note')).toBe(1000);
    expect(await sequences.next('note')).toBe(1001);
    expect(calls.inc).toEqual([1, 1]);
  });

  it('serves the callers who ask during a draw with one draw, in the order they asked, every id distinct', async () => {
    const { connection, calls } = fakeConnection();
    const sequences = new Sequences(connection, { start: 1000 });
    const ids = await Promise.all(Array.from({ length: 50 }, () => sequences.next('collection')));
    expect(ids).toEqual(Array.from({ length: 50 }, (_, i) => 1000 + i));
    // the first caller draws alone; the 49 who came during its draw share the next one
    expect(calls.inc).toEqual([1, 49]);
  });

  it('keeps each name its own counter', async () => {
    const { connection } = fakeConnection();
    const sequences = new Sequences(connection, { start: 1000 });
    const [a, b] = await Promise.all([sequences.next('note'), sequences.next('note_comment')]);
    expect([a, b]).toEqual([1000, 1000]);
  });

  it('never hands out an id an import took (atLeast), even with draws waiting', async () => {
    const { connection } = fakeConnection();
    const sequences = new Sequences(connection, { start: 1000 });
    await sequences.next('review');
    const raised = sequences.atLeast('review', 5000);
    const ids = await Promise.all([sequences.next('review'), sequences.next('review')]);
    await raised;
    expect(Math.min(...ids)).toBeGreaterThan(5000);
  });

  it('fails every caller of a failed draw, and draws again for the next', async () => {
    const { connection, calls } = fakeConnection();
    const sequences = new Sequences(connection, { start: 1000 });
    await sequences.next('note');
    calls.fail = true;
    const failed = await Promise.allSettled([sequences.next('note'), sequences.next('note')]);
    expect(failed.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    calls.fail = false;
    expect(await sequences.next('note')).toBe(1001);
  });

  describe('as the only drawer (the local engine)', () => {
    const sole = async () => true;

    it('draws IDS_AHEAD ids more and hands them out without a round trip, consecutive', async () => {
      const { connection, calls } = fakeConnection();
      const sequences = new Sequences(connection, { start: 1000, soleDrawer: sole });
      const ids: number[] = [];
      for (let i = 0; i < IDS_AHEAD + 2; i++) ids.push(await sequences.next('note'));
      expect(ids).toEqual(Array.from({ length: IDS_AHEAD + 2 }, (_, i) => 1000 + i));
      // the first draw took 1 + IDS_AHEAD; the id after those drew again, with IDS_AHEAD more
      expect(calls.inc).toEqual([1 + IDS_AHEAD, 1 + IDS_AHEAD]);
    });

    it('serves a group from the held ids first, then draws the rest', async () => {
      const { connection, calls } = fakeConnection();
      const sequences = new Sequences(connection, { start: 1000, soleDrawer: sole });
      await sequences.next('collection');
      const ids = await Promise.all(Array.from({ length: IDS_AHEAD + 5 }, () => sequences.next('collection')));
      expect(ids).toEqual(Array.from({ length: IDS_AHEAD + 5 }, (_, i) => 1001 + i));
      expect(new Set(ids).size).toBe(ids.length);
      expect(calls.inc).toEqual([1 + IDS_AHEAD, 5 + IDS_AHEAD]);
    });

    it('drops the held ids an import reached (atLeast), and keeps those above it', async () => {
      const { connection, calls } = fakeConnection();
      const sequences = new Sequences(connection, { start: 1000, soleDrawer: sole });
      expect(await sequences.next('review')).toBe(1000);
      await sequences.atLeast('review', 1010);
      expect(await sequences.next('review')).toBe(1011);
      expect(calls.inc).toEqual([1 + IDS_AHEAD]);
      await sequences.atLeast('review', 5000);
      expect(await sequences.next('review')).toBe(5001);
    });

    it('never hands out an id an import took, even with draws waiting', async () => {
      const { connection } = fakeConnection();
      const sequences = new Sequences(connection, { start: 1000, soleDrawer: sole });
      await sequences.next('review');
      const raised = sequences.atLeast('review', 1005);
      const ids = await Promise.all([sequences.next('review'), sequences.next('review')]);
      await raised;
      expect(Math.min(...ids)).toBeGreaterThan(1005);
    });
  });
});
