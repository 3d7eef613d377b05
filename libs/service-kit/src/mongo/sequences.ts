import type { Provider } from '@nestjs/common';
import { getConnectionToken } from '@nestjs/mongoose';
import type { Connection } from 'mongoose';
import { GroupCommit, KeyedMutex } from '@plaza/platform';
import { DatabaseEngine } from './database-engine';
import { databaseWrites } from './database-writes';

const DUPLICATE_KEY = 11000;

/**
 * How many ids a draw takes beyond those asked for when this process is the only one that draws
 * (the local engine, one instance per service by its lease): the next creates take them without
 * a round trip. A process that stops leaves the rest unused, a gap in the ids.
 */
export const IDS_AHEAD = 32;

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
 *
 * Where this process is the only one that draws (`soleDrawer`: the local engine), a draw also
 * takes IDS_AHEAD ids more, held here for the next callers; an import's `atLeast` drops the held
 * ids it reaches, so an id it took is never handed out. Where several instances draw (MongoDB),
 * nothing is drawn ahead of need: another instance's import could not drop what this one holds.
 * One instance of this class per service, shared by its creates and its imports.
 */
export class Sequences {
  private readonly lock = new KeyedMutex();
  /** Names whose counter this process has already raised to `start`. */
  private readonly started = new Set<string>();
  /** One group of draws per name. */
  private readonly draws = new Map<string, GroupCommit<void, number>>();
  /** Ids drawn ahead and not handed out yet, by name: `next` to `last`. */
  private readonly held = new Map<string, { next: number; last: number }>();

  /** The first id of a name the counter has never given. */
  private readonly start: number;
  /** Whether this process is the only one that draws from these counters (the local engine's lease). */
  private readonly soleDrawer: () => Promise<boolean>;

  constructor(private readonly connection: Connection, options: { start?: number; soleDrawer?: () => Promise<boolean> } = {}) {
    this.start = options.start ?? 1000;
    this.soleDrawer = options.soleDrawer ?? (async () => false);
  }

  private get sequences() {
    return this.connection.collection<{ _id: string; value: number }>('sequences');
  }

  next(name: string): Promise<number> {
    let group = this.draws.get(name);
    if (!group) {
      group = new GroupCommit((callers) => this.take(name, callers.length));
      this.draws.set(name, group);
    }
    return group.add();
  }

  /** `count` ids in ascending order: the held ones first, then drawn (with IDS_AHEAD more to hold, for a sole drawer). */
  private take(name: string, count: number): Promise<number[]> {
    return this.lock.run(name, async () => {
      const ids: number[] = [];
      const held = this.held.get(name);
      while (held && held.next <= held.last && ids.length < count) ids.push(held.next++);
      if (ids.length === count) return ids;
      const needed = count - ids.length;
      const drawn = needed + ((await this.soleDrawer()) ? IDS_AHEAD : 0);
      const last = await this.draw(name, drawn);
      const first = last - drawn + 1;
      for (let id = first; id < first + needed; id++) ids.push(id);
      if (drawn > needed) this.held.set(name, { next: first + needed, last });
      return ids;
    });
  }

  /** Advances the counter by `count` and returns its new value, the last of the ids drawn (under the name's lock). */
  private async draw(name: string, count: number): Promise<number> {
    if (!this.started.has(name)) {
      // first use: ids start past the ones an import may have taken
      await this.raise(name, this.start - 1);
      this.started.add(name);
    }
    const doc = await databaseWrites(this.connection).run(() => this.sequences.findOneAndUpdate({ _id: name }, { $inc: { value: count } }, { returnDocument: 'after' }));
    if (!doc) throw new Error(`sequence ${name} vanished`);
    return doc.value;
  }

  /** Moves the counter past an id given explicitly (by an import), so generated ids never collide. */
  async atLeast(name: string, value: number): Promise<void> {
    await this.lock.run(name, async () => {
      await this.raise(name, value);
      const held = this.held.get(name);
      if (held) held.next = Math.max(held.next, value + 1);
    });
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

/** The service's one `Sequences`, drawing ahead on the local engine (where the lease keeps it the only drawer). */
export const sequencesProvider: Provider = {
  provide: Sequences,
  inject: [getConnectionToken(), DatabaseEngine],
  useFactory: (connection: Connection, engine: DatabaseEngine) => new Sequences(connection, { soleDrawer: () => engine.isLocal() }),
};
