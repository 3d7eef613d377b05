import type { Connection } from 'mongoose';
import { KeyedMutex } from '@plaza/platform';

const DUPLICATE_KEY = 11000;

/**
 * Numeric ids (the API's `id` of collections, annotations, reviews, notes, comments are
 * integers or digit strings). One counter document per name in the service's `sequences`
 * collection, advanced with `$inc` and raised with `$max`: each one atomic on MongoDB, so any
 * number of instances draw distinct ids. The per-name lock serialises this instance's own calls,
 * which FerretDB v1 needs (its updates are not atomic; one instance per service there, held by
 * the lease).
 */
export class Sequences {
  private readonly lock = new KeyedMutex();
  /** Names whose counter this process has already raised to `start`. */
  private readonly started = new Set<string>();

  constructor(private readonly connection: Connection, private readonly start = 1000) {}

  private get sequences() {
    return this.connection.collection<{ _id: string; value: number }>('sequences');
  }

  async next(name: string): Promise<number> {
    return this.lock.run(name, async () => {
      if (!this.started.has(name)) {
        // first use: ids start past the ones an import may have taken
        await this.raise(name, this.start - 1);
        this.started.add(name);
      }
      const doc = await this.sequences.findOneAndUpdate({ _id: name }, { $inc: { value: 1 } }, { returnDocument: 'after' });
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
        await this.sequences.updateOne({ _id: name }, { $max: { value } }, { upsert: true });
        return;
      } catch (err) {
        // two first upserts of one name at once: the loser finds the document the next time
        if ((err as { code?: number }).code !== DUPLICATE_KEY || attempt >= 3) throw err;
      }
    }
  }
}
