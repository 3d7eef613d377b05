import { mongo } from 'mongoose';
import type { DatabaseEngine } from './database-engine';
import { GroupedWrites } from './grouped-writes';

interface Entry {
  _id: string;
  rev: number;
  status?: string;
}

const turn = () => new Promise((r) => setImmediate(r));

/**
 * A collection in memory that answers as the driver does: one method per command, each taking a
 * turn of the event loop (so the writes that come meanwhile wait for the next batch), and the
 * commands it was sent, in order.
 */
class FakeCollection {
  readonly docs = new Map<string, Entry>();
  readonly commands: string[] = [];
  /** Documents a replace or delete of the next batch finds gone (the database behind the service's copy). */
  readonly vanished = new Set<string>();
  failNextBatch?: Error;

  async insertOne(doc: Entry) {
    this.commands.push(`insertOne ${doc._id}`);
    await turn();
    if (this.docs.has(doc._id)) throw new mongo.MongoServerError({ message: 'E11000 duplicate key', code: 11000 });
    this.docs.set(doc._id, doc);
    return { acknowledged: true };
  }

  async replaceOne(filter: { _id: string }, doc: Entry) {
    this.commands.push(`replaceOne ${filter._id}`);
    await turn();
    const matched = this.docs.has(filter._id);
    if (matched) this.docs.set(filter._id, doc);
    return { matchedCount: matched ? 1 : 0 };
  }

  async deleteOne(filter: { _id: string }) {
    this.commands.push(`deleteOne ${filter._id}`);
    await turn();
    return { deletedCount: this.docs.delete(filter._id) ? 1 : 0 };
  }

  async findOne(filter: { _id: string }) {
    return this.docs.get(filter._id) ?? null;
  }

  async bulkWrite(models: Array<{ insertOne?: { document: Entry }; replaceOne?: { filter: { _id: string }; replacement: Entry }; deleteOne?: { filter: { _id: string } } }>) {
    this.commands.push(`bulkWrite ${models.length}`);
    await turn();
    if (this.failNextBatch) {
      const err = this.failNextBatch;
      this.failNextBatch = undefined;
      throw err;
    }
    for (const id of this.vanished) this.docs.delete(id);
    this.vanished.clear();
    const result = { insertedCount: 0, matchedCount: 0, deletedCount: 0 };
    const writeErrors: Array<{ index: number; code: number; errmsg: string }> = [];
    models.forEach(({ insertOne, replaceOne, deleteOne }, index) => {
      if (insertOne && this.docs.has(insertOne.document._id)) {
        writeErrors.push({ index, code: 11000, errmsg: 'E11000 duplicate key' });
      } else if (insertOne) {
        this.docs.set(insertOne.document._id, insertOne.document);
        result.insertedCount++;
      } else if (replaceOne && this.docs.has(replaceOne.filter._id)) {
        this.docs.set(replaceOne.filter._id, replaceOne.replacement);
        result.matchedCount++;
      } else if (deleteOne && this.docs.delete(deleteOne.filter._id)) {
        result.deletedCount++;
      }
    });
    if (writeErrors.length === 0) return result;
    const err = Object.create(mongo.MongoBulkWriteError.prototype) as Record<string, unknown>;
    Object.assign(err, { writeErrors: writeErrors.map((e) => ({ ...e, get index() { return e.index; } })), result });
    throw err;
  }
}

/** An engine on `branch` whose write queue runs one write at a time, as DatabaseWrites does on FerretDB. */
function engineOn(branch: 'local' | 'mongodb'): DatabaseEngine {
  let tail: Promise<unknown> = Promise.resolve();
  return {
    isLocal: async () => branch === 'local',
    write: <T>(command: () => Promise<T>) => {
      const run = tail.then(command);
      tail = run.catch(() => undefined);
      return run;
    },
  } as unknown as DatabaseEngine;
}

function setUp(branch: 'local' | 'mongodb' = 'local') {
  const collection = new FakeCollection();
  const writes = new GroupedWrites<Entry>(engineOn(branch), collection as unknown as mongo.Collection<Entry>);
  return { collection, writes };
}

describe('GroupedWrites on the local engine', () => {
  it('sends a lone write as its own command, answered as the driver answers it', async () => {
    const { collection, writes } = setUp();
    await writes.insertOne({ _id: 'a', rev: 0 });
    expect(await writes.replaceOne({ _id: 'a' }, { _id: 'a', rev: 1, status: 'read' })).toEqual({ matchedCount: 1 });
    expect(await writes.deleteOne({ _id: 'a' })).toEqual({ deletedCount: 1 });
    expect(await writes.deleteOne({ _id: 'a' })).toEqual({ deletedCount: 0 });
    expect(collection.commands).toEqual(['insertOne a', 'replaceOne a', 'deleteOne a', 'deleteOne a']);
  });

  it('sends the writes that come while one is in flight together, each caller answered for its own write', async () => {
    const { collection, writes } = setUp();
    collection.docs.set('r', { _id: 'r', rev: 0 });
    collection.docs.set('d', { _id: 'd', rev: 0 });
    const first = writes.insertOne({ _id: 'first', rev: 0 });
    const rest = [
      writes.insertOne({ _id: 'b', rev: 0 }),
      writes.replaceOne({ _id: 'r' }, { _id: 'r', rev: 1, status: 'read' }),
      writes.deleteOne({ _id: 'd' }),
    ];
    await first;
    expect(await Promise.all(rest)).toEqual([undefined, { matchedCount: 1 }, { deletedCount: 1 }]);
    expect(collection.commands).toEqual(['insertOne first', 'bulkWrite 3']);
    expect([...collection.docs.keys()].sort()).toEqual(['b', 'first', 'r']);
    expect(collection.docs.get('r')).toEqual({ _id: 'r', rev: 1, status: 'read' });
  });

  it('fails only the caller whose insert found its key taken, with the error code an insert alone gives', async () => {
    const { collection, writes } = setUp();
    collection.docs.set('taken', { _id: 'taken', rev: 0 });
    const first = writes.insertOne({ _id: 'first', rev: 0 });
    const taken = writes.insertOne({ _id: 'taken', rev: 5 });
    const free = writes.insertOne({ _id: 'free', rev: 0 });
    await first;
    await expect(taken).rejects.toMatchObject({ code: 11000 });
    await expect(free).resolves.toBeUndefined();
    expect(collection.docs.get('taken')?.rev).toBe(0);
    expect(collection.commands).toEqual(['insertOne first', 'bulkWrite 2']);
  });

  it('reads the documents back when the batch matched fewer than it asked: a replace matched if its version is stored, a delete if the document is gone', async () => {
    const { collection, writes } = setUp();
    for (const id of ['r1', 'r2', 'd1', 'd2']) collection.docs.set(id, { _id: id, rev: 3 });
    collection.vanished.add('r2');
    collection.vanished.add('d2');
    const first = writes.insertOne({ _id: 'first', rev: 0 });
    const batch = [
      writes.replaceOne({ _id: 'r1' }, { _id: 'r1', rev: 4 }),
      writes.replaceOne({ _id: 'r2' }, { _id: 'r2', rev: 4 }),
      writes.deleteOne({ _id: 'd1' }),
      writes.deleteOne({ _id: 'd2' }),
    ];
    await first;
    expect(await Promise.all(batch)).toEqual([{ matchedCount: 1 }, { matchedCount: 0 }, { deletedCount: 1 }, { deletedCount: 1 }]);
  });

  it('fails every caller of a batch whose command failed as a whole, and sends the next writes afresh', async () => {
    const { collection, writes } = setUp();
    const first = writes.insertOne({ _id: 'first', rev: 0 });
    collection.failNextBatch = new mongo.MongoNetworkError('connection closed');
    const batch = [writes.insertOne({ _id: 'a', rev: 0 }), writes.insertOne({ _id: 'b', rev: 0 })];
    await first;
    for (const write of batch) await expect(write).rejects.toThrow('connection closed');
    await writes.insertOne({ _id: 'c', rev: 0 });
    expect(collection.commands).toEqual(['insertOne first', 'bulkWrite 2', 'insertOne c']);
  });
});

describe('GroupedWrites on MongoDB', () => {
  it('never groups: every write is its own command, whose own answer says whether it matched', async () => {
    const { collection, writes } = setUp('mongodb');
    collection.docs.set('r', { _id: 'r', rev: 0 });
    const answers = await Promise.all([
      writes.insertOne({ _id: 'a', rev: 0 }),
      writes.insertOne({ _id: 'b', rev: 0 }),
      writes.replaceOne({ _id: 'r' }, { _id: 'r', rev: 1 }),
      writes.deleteOne({ _id: 'gone' }),
    ]);
    expect(answers).toEqual([undefined, undefined, { matchedCount: 1 }, { deletedCount: 0 }]);
    expect(collection.commands).toEqual(['insertOne a', 'insertOne b', 'replaceOne r', 'deleteOne gone']);
  });
});
