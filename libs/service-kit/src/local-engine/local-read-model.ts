import type { DatabaseEngine } from '../mongo/database-engine';

/**
 * A collection's documents, or what a read needs of them, held in memory for the local engine.
 * FerretDB v1 answers any filter other than `_id` by decoding every document of the collection,
 * so the hottest filtered reads (searches, a user's list) are answered from here instead.
 *
 * Filled once from the database (`ready`), then kept current by the repository that owns the
 * collection: it calls `put` and `remove` after each of its writes. On the local engine every
 * service runs as a single instance (its lease), so that repository sees every write
 * (docs/ENGINES.md). A write that
 * lands while the load is under way wins over what the load read.
 */
export abstract class LocalReadModel<Doc extends { _id: string }> {
  private loading?: Promise<void>;
  private writtenDuringLoad?: Set<string>;
  private complete = false;

  /** True once every document has been loaded: reads that must not wait for a load (by `_id`) ask the database until then. */
  get loaded(): boolean {
    return this.complete;
  }

  /** Holds `doc`, replacing what was held under its `_id`. */
  protected abstract store(doc: Doc): void;
  /** Forgets what is held under `id`. */
  protected abstract drop(id: string): void;

  /** Loads every document once; a failed load is tried again by the next call. */
  ready(all: () => AsyncIterable<Doc>): Promise<void> {
    this.loading ??= this.load(all).catch((err: unknown) => {
      this.loading = undefined;
      throw err;
    });
    return this.loading;
  }

  /**
   * Starts the load while the service starts, so no request waits for it. On the MongoDB branch
   * it does nothing; when the database cannot be reached yet, the first read loads it instead.
   */
  async preload(engine: DatabaseEngine, all: () => AsyncIterable<Doc>): Promise<void> {
    try {
      if (await engine.isLocal()) void this.ready(all).catch(() => undefined);
    } catch {
      // the engine is not known yet: the first read loads
    }
  }

  put(doc: Doc): void {
    this.writtenDuringLoad?.add(doc._id);
    this.store(doc);
  }

  remove(id: string): void {
    this.writtenDuringLoad?.add(id);
    this.drop(id);
  }

  private async load(all: () => AsyncIterable<Doc>): Promise<void> {
    const written = (this.writtenDuringLoad = new Set());
    try {
      for await (const doc of all()) if (!written.has(doc._id)) this.store(doc);
      this.complete = true;
    } finally {
      this.writtenDuringLoad = undefined;
    }
  }
}
