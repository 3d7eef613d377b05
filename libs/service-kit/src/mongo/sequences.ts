import type { Connection } from 'mongoose';
import { GroupCommit, KeyedMutex } from '@plaza/platform';
import { databaseWrites } from './database-writes';

const DUPLICATE_KEY = 11000;

/**
 * Numeric ids (the API's `id` of collections, annotations, reviews, notes, comments are
 * integers or digit strings). One counter document per name in the service's `sequences`
 * collection, advanced with `$inc` and raised with `$max`: each one atomic on MongoDB, so any
 * number of instances draw distinct ids. The per-name lock serialises this instance's own calls,
 * which FerretDB v1 needs (its updates are not atomic; one instance per service there, held by
 * the lease).
 *
 * Draws are grouped (GroupCommit): the callers that ask while a draw is in flight share the next
 * one, a single `$inc` by how many they are, and take its ids in the order they asked. Without it
 * every create of a busy service queued behind one round trip per id (docs/PERFORMANCE.md, "Writes").
 * Nothing is drawn ahead of need, so an import's `atLeast` can never meet an id held back here.
 */
export class Sequences {
  private readonly lock = new KeyedMutex();
  /** Names whose counter this process has already raised to `start`. */
  private readonly started = new Set<string>();
  /** One group of draws per name. */
  private readonly draws = new Map<string, GroupCommit<void, number>>();

  constructor(private readonly connection: Connection, private readonly start = 1000) {}

  private get sequences() {
    return this.connection.collection<{ _id: string; value: number }>('sequences');
  }

  next(name: string): Promise<number> {
    let group = this.draws.get(name);
    if (!group) {
      group = new GroupCommit(async (callers) => {
        const last = await this.draw(name, callers.length);
        return callers.map((_, i) => last - callers.length + 1 + i);
      });
      this.draws.set(name, group);
    }
    return group.add();
  }

  /** Advances the counter by `count` and returns its new value, the last of the ids drawn. */
  private draw(name: string, count: number): Promise<number> {
    return this.lock.run(name, async () => {
      if (!this.started.has(name)) {
        // first use: ids start past the ones an import may have taken
        await this.raise(name, this.start - 1);
        this.started.add(name);
      }
      const doc = await databaseWrites(this.connection).run(() => this.sequences.findOneAndUpdate({ _id: name }, { $inc: { value: count } }, { returnDocument: 'after' }));
      if (!doc) throw new Error(`sequence ${name} vanished`);
      return doc.value;
    });
  }

  /** Moves the counter past an id given explicitly (by an import), so generated ids never collide. */
  async atLeast(name: string, value: number): Promise<void> {
    await this.lock.run(name, () => this.raise(name, value));
  }

  /** `$max`: never lowers the counter, whoever else raises it meanwhile. */
  private async raise(name: string, value: number): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      try {
        await databaseWrites(this.connection).run(() => this.sequences.updateOne({ _id: name }, { $max: { value } }, { upsert: true }));
        return;
      } catch (err) {
        // two first upserts of one name at once: the loser finds the document the next time
        if ((err as { code?: number }).code !== DUPLICATE_KEY || attempt >= 3) throw err;
      }
    }
  }
}
