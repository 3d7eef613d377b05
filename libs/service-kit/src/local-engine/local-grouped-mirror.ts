import { LocalReadModel } from './local-read-model';

/**
 * The documents of a collection grouped by one field (a user's collection entries, say): on the
 * local engine a per-user list then costs the user's own entries, not the whole collection.
 * Loading and upkeep: see LocalReadModel.
 */
export class LocalGroupedMirror<Doc extends { _id: string }> extends LocalReadModel<Doc> {
  private readonly groups = new Map<string, Map<string, Doc>>();
  private readonly groupOfId = new Map<string, string>();

  constructor(private readonly groupOf: (doc: Doc) => string) {
    super();
  }

  /** The document held under `id`, if any. */
  get(id: string): Doc | undefined {
    const key = this.groupOfId.get(id);
    return key === undefined ? undefined : this.groups.get(key)?.get(id);
  }

  /** The documents of one group, in no particular order. */
  group(key: string): Doc[] {
    return [...(this.groups.get(key)?.values() ?? [])];
  }

  /** Every document held, group by group. */
  *all(): IterableIterator<Doc> {
    for (const group of this.groups.values()) yield* group.values();
  }

  protected store(doc: Doc): void {
    this.drop(doc._id);
    const key = this.groupOf(doc);
    let group = this.groups.get(key);
    if (!group) this.groups.set(key, (group = new Map()));
    group.set(doc._id, doc);
    this.groupOfId.set(doc._id, key);
  }

  protected drop(id: string): void {
    const key = this.groupOfId.get(id);
    if (key === undefined) return;
    const group = this.groups.get(key);
    group?.delete(id);
    if (group?.size === 0) this.groups.delete(key);
    this.groupOfId.delete(id);
  }
}
