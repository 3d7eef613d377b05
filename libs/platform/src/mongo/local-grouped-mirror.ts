/**
 * The documents of a collection, grouped by one field (a user's collection entries, say), held
 * in memory for the local engine. FerretDB v1 answers any filter other than `_id` by decoding
 * every document of the collection, so a per-user list costs the whole collection; from here it
 * costs the user's own entries.
 *
 * Filled once from the database (`ready`), then kept current by the repository that owns the
 * collection: it calls `put` and `remove` after each write. On FerretDB every service runs as a
 * single instance, so that repository sees every write (docs/ENGINES.md). A write that lands
 * while the load is under way wins over what the load read.
 */
export class LocalGroupedMirror<Doc extends { _id: string }> {
  private readonly groups = new Map<string, Map<string, Doc>>();
  private readonly groupOfId = new Map<string, string>();
  private loading?: Promise<void>;
  private writtenDuringLoad?: Set<string>;

  constructor(private readonly groupOf: (doc: Doc) => string) {}

  ready(all: () => AsyncIterable<Doc>): Promise<void> {
    this.loading ??= this.load(all).catch((err: unknown) => {
      this.loading = undefined;
      throw err;
    });
    return this.loading;
  }

  private async load(all: () => AsyncIterable<Doc>): Promise<void> {
    const written = (this.writtenDuringLoad = new Set());
    try {
      for await (const doc of all()) if (!written.has(doc._id)) this.store(doc);
    } finally {
      this.writtenDuringLoad = undefined;
    }
  }

  put(doc: Doc): void {
    this.writtenDuringLoad?.add(doc._id);
    this.store(doc);
  }

  remove(id: string): void {
    this.writtenDuringLoad?.add(id);
    const group = this.groupOfId.get(id);
    if (group === undefined) return;
    this.groups.get(group)?.delete(id);
    if (this.groups.get(group)?.size === 0) this.groups.delete(group);
    this.groupOfId.delete(id);
  }

  private store(doc: Doc): void {
    this.remove(doc._id);
    const key = this.groupOf(doc);
    let group = this.groups.get(key);
    if (!group) this.groups.set(key, (group = new Map()));
    group.set(doc._id, doc);
    this.groupOfId.set(doc._id, key);
  }

  /** The documents of one group, in no particular order. */
  group(key: string): Doc[] {
    return [...(this.groups.get(key)?.values() ?? [])];
  }
}
