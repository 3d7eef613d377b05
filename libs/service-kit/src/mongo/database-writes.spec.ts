import { type Connection, mongo } from 'mongoose';
import { DatabaseWrites, databaseWrites } from './database-writes';

const connectionTo = (ferretDb: boolean | 'not connected') =>
  ({ db: ferretDb === 'not connected' ? undefined : { admin: () => ({ command: async () => (ferretDb ? { ferretdbVersion: '1.24.0' } : { version: '7.0.0' }) }) } }) as unknown as Connection;

/** Runs `n` writes that each take a few turns of the event loop; reports the most in flight at once and the order they ended. */
async function writes(queue: DatabaseWrites, n: number) {
  let inFlight = 0;
  let most = 0;
  const ended: number[] = [];
  await Promise.all(Array.from({ length: n }, (_, i) => queue.run(async () => {
    most = Math.max(most, ++inFlight);
    for (let turn = 0; turn < (i % 3) + 1; turn++) await new Promise((r) => setImmediate(r));
    inFlight--;
    ended.push(i);
    return i;
  })));
  return { most, ended };
}

describe('DatabaseWrites', () => {
  it('runs the writes to a FerretDB database one at a time, in the order they came', async () => {
    const { most, ended } = await writes(new DatabaseWrites(connectionTo(true)), 10);
    expect(most).toBe(1);
    expect(ended).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });

  it('lets writes to MongoDB run together', async () => {
    expect((await writes(new DatabaseWrites(connectionTo(false)), 10)).most).toBe(10);
  });

  it('does not queue before the connection is up, and asks again once it is', async () => {
    const connection = connectionTo('not connected') as { db?: unknown };
    const queue = new DatabaseWrites(connection as Connection);
    expect((await writes(queue, 5)).most).toBe(5);
    connection.db = (connectionTo(true) as unknown as { db: unknown }).db;
    expect((await writes(queue, 5)).most).toBe(1);
  });

  it('gives every writer of one connection the same queue, and passes a failure to its own writer only', async () => {
    const connection = connectionTo(true);
    expect(databaseWrites(connection)).toBe(databaseWrites(connection));
    const queue = databaseWrites(connection);
    const failed = queue.run(async () => { throw new Error('duplicate key'); });
    const next = queue.run(async () => 'written');
    await expect(failed).rejects.toThrow('duplicate key');
    await expect(next).resolves.toBe('written');
  });
});

describe('DatabaseWrites with the database unreachable', () => {
  it('fails the writes waiting behind one that could not reach it at once, and those that come within the hold; tries those after', async () => {
    const queue = new DatabaseWrites(connectionTo(true), 50);
    const attempted: string[] = [];
    const unreachable = new mongo.MongoServerSelectionError('Server selection timed out', { } as never);
    const first = queue.run(async () => {
      attempted.push('first');
      await new Promise((r) => setImmediate(r));
      throw unreachable;
    });
    const waiting = [queue.run(async () => attempted.push('second')), queue.run(async () => attempted.push('third'))];
    await expect(first).rejects.toBe(unreachable);
    for (const w of waiting) await expect(w).rejects.toBe(unreachable);
    // one that comes right after is not tried either
    await expect(queue.run(async () => attempted.push('fourth'))).rejects.toBe(unreachable);
    expect(attempted).toEqual(['first']);
    // the database may be back: a write that comes after the hold is tried
    await new Promise((r) => setTimeout(r, 60));
    await expect(queue.run(async () => 'written')).resolves.toBe('written');
  });
});
