import type { Connection } from 'mongoose';
import { KeyedMutex } from '@plaza/platform';

/**
 * Numeric ids (the spec's `id` of collections, annotations, reviews, notes, comments are
 * integers or digit strings). One counter document per name in the service's `sequences`
 * collection, advanced with `$inc` (atomic on MongoDB) under a per-name lock (which FerretDB v1
 * needs, see KeyedMutex).
 */
export class Sequences {
  private readonly lock = new KeyedMutex();

  constructor(private readonly connection: Connection, private readonly start = 1000) {}

  async next(name: string): Promise<number> {
    return this.lock.run(name, async () => {
      const sequences = this.connection.collection<{ _id: string; value: number }>('sequences');
      const doc = await sequences.findOneAndUpdate(
        { _id: name },
        { $inc: { value: 1 } },
        { upsert: true, returnDocument: 'after' },
      );
      const value = doc?.value ?? 1;
      if (value < this.start) {
        // first use: jump past the ids an import may have taken
        await sequences.updateOne({ _id: name }, { $set: { value: this.start } });
        return this.start;
      }
      return value;
    });
  }

  /** Moves the counter past an id given explicitly (by an import), so generated ids never collide. */
  async atLeast(name: string, value: number): Promise<void> {
    await this.lock.run(name, async () => {
      const sequences = this.connection.collection<{ _id: string; value: number }>('sequences');
      const doc = await sequences.findOne({ _id: name });
      if (!doc || doc.value < value) await sequences.updateOne({ _id: name }, { $set: { value } }, { upsert: true });
    });
  }
}
