import { GroupCommit } from '@plaza/platform';
import { mongo } from 'mongoose';
import type { DatabaseEngine } from './database-engine';
import { DRIVER_WRITE } from './driver-collection';

type Doc = mongo.Document & { _id: string };

/** One document's write, as a repository asks for it. */
type Write<T extends Doc> =
  | { kind: 'insert'; doc: T }
  | { kind: 'replace'; filter: mongo.Filter<T>; doc: T }
  | { kind: 'delete'; filter: mongo.Filter<T> };

/** What one write gave: the driver's own answer for its kind, or its own error. */
type Outcome = { ok: true; matched: boolean } | { ok: false; error: unknown };

/**
 * The single-document writes of one collection, each answered as the driver answers it, sent
 * together on the local engine when they come while the collection's previous writes are in
 * flight (group commit: a lone write goes at once, alone, as before).
 *
 * Why: on FerretDB a service's writes go one at a time (DatabaseWrites), and each command costs
 * a round trip, the driver's and FerretDB's work on it, and a turn of both event loops. Under the
 * write mix the book service's entry writes were the queue every collection write waited in
 * (100–250 ms at the median while each command took 3–5 ms); ten writes in one `bulkWrite` cost
 * FerretDB about half and the driver about a quarter of what ten commands do
 * (docs/PERFORMANCE.md, "Writes").
 *
 * A batch is `bulkWrite`, unordered: every write is tried whatever another's outcome, a write
 * error (a duplicate key) comes back by the write's index and is that caller's alone, and an error
 * of the whole command (the database unreachable) is every caller's. A command's answer counts
 * matches per batch, not per write; on the local engine a replace or delete filters by `_id`
 * alone under the caller's per-document lock (DatabaseEngine.versionFilter), so each of them is
 * expected to match. When the counts say one did not, each replaced or deleted document is read
 * back: a replace matched when the stored document is the replacement's version (`rev`), a delete
 * when the document is gone.
 *
 * On MongoDB nothing is grouped: a replace or delete there is a compare-and-swap whose own
 * answer says which of two instances won, and MongoDB runs writes side by side anyway.
 *
 * Callers never have two writes of one document in flight at once (each holds the document's
 * lock until its write is answered): an unordered batch may apply its writes in any order.
 */
export class GroupedWrites<T extends Doc> {
  private readonly group = new GroupCommit<Write<T>, Outcome>((writes) => this.writeAll(writes));

  constructor(private readonly engine: DatabaseEngine, private readonly collection: mongo.Collection<T>) {}

  /** Inserts `doc`; a duplicate `_id` rejects with the server's error (code 11000), as `insertOne`. */
  async insertOne(doc: T): Promise<void> {
    await this.settle({ kind: 'insert', doc });
  }

  /** Replaces the document `filter` names by `doc` (which carries its `rev`); resolves whether it matched. */
  async replaceOne(filter: mongo.Filter<T>, doc: T): Promise<{ matchedCount: number }> {
    return { matchedCount: (await this.settle({ kind: 'replace', filter, doc })) ? 1 : 0 };
  }

  /** Deletes the document `filter` names; resolves whether one was deleted. */
  async deleteOne(filter: mongo.Filter<T>): Promise<{ deletedCount: number }> {
    return { deletedCount: (await this.settle({ kind: 'delete', filter })) ? 1 : 0 };
  }

  private async settle(write: Write<T>): Promise<boolean> {
    const outcome = (await this.engine.isLocal()) ? await this.group.add(write) : await this.engine.write(() => this.writeOne(write));
    if (outcome.ok) return outcome.matched;
    throw outcome.error;
  }

  /** One write as its own command, answered as the driver answers it (an error thrown). */
  private async writeOne(write: Write<T>): Promise<Outcome> {
    switch (write.kind) {
      case 'insert':
        await this.collection.insertOne(write.doc as mongo.OptionalUnlessRequiredId<T>, DRIVER_WRITE);
        return { ok: true, matched: true };
      case 'replace':
        return { ok: true, matched: (await this.collection.replaceOne(write.filter, write.doc as mongo.WithoutId<T>, DRIVER_WRITE)).matchedCount === 1 };
      case 'delete':
        return { ok: true, matched: (await this.collection.deleteOne(write.filter)).deletedCount === 1 };
    }
  }

  private async writeAll(writes: Array<Write<T>>): Promise<Outcome[]> {
    // a lone write is its own command; its error fails its caller (GroupCommit)
    if (writes.length === 1) return [await this.engine.write(() => this.writeOne(writes[0]))];
    const result = await this.engine.write(() => this.collection.bulkWrite(writes.map(toModel), { ordered: false, ...DRIVER_WRITE }).then(
      (done) => ({ done, failed: new Map<number, unknown>() }),
      (err: unknown) => {
        // only write errors are the writes' own; anything else fails the whole batch
        if (!(err instanceof mongo.MongoBulkWriteError) || !err.result) throw err;
        const errors = Array.isArray(err.writeErrors) ? err.writeErrors : [err.writeErrors];
        return { done: err.result, failed: new Map<number, unknown>(errors.map((e) => [e.index, writeError(e)])) };
      },
    ));
    const outcomes: Outcome[] = writes.map((_, i) => (result.failed.has(i) ? { ok: false, error: result.failed.get(i) } : { ok: true, matched: true }));
    const asked = (kind: Write<T>['kind']) => writes.filter((w, i) => w.kind === kind && !result.failed.has(i)).length;
    if (result.done.matchedCount < asked('replace') || result.done.deletedCount < asked('delete')) await this.readBack(writes, outcomes);
    return outcomes;
  }

  /** Which replaces and deletes of a batch took effect, from the documents as stored now. */
  private async readBack(writes: Array<Write<T>>, outcomes: Outcome[]): Promise<void> {
    await Promise.all(writes.map(async (write, i) => {
      if (write.kind === 'insert' || !outcomes[i].ok) return;
      const stored = await this.collection.findOne({ _id: write.filter._id } as mongo.Filter<T>);
      const matched = write.kind === 'delete' ? stored === null : stored !== null && stored.rev === write.doc.rev;
      outcomes[i] = { ok: true, matched };
    }));
  }
}

function toModel<T extends Doc>(write: Write<T>): mongo.AnyBulkWriteOperation<T> {
  switch (write.kind) {
    case 'insert':
      return { insertOne: { document: write.doc as mongo.OptionalId<T> } };
    case 'replace':
      return { replaceOne: { filter: write.filter, replacement: write.doc as mongo.WithoutId<T> } };
    case 'delete':
      return { deleteOne: { filter: write.filter } };
  }
}

/** A batch's write error as the error its write alone would have thrown (a MongoServerError with its code). */
function writeError(e: mongo.WriteError): Error {
  return new mongo.MongoServerError({ message: e.errmsg ?? 'write error', code: e.code, errmsg: e.errmsg });
}
