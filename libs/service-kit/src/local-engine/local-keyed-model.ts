import { LocalReadModel } from './local-read-model';

/**
 * What a read needs of each document of a collection, by `_id`, held in memory for the local
 * engine: a page of records (a search page, say) then costs no database read, where FerretDB v1
 * would decode each whole document again (it applies a projection after decoding). `keep` picks
 * the part held; a document it gives nothing for is not held. Loading and upkeep: see LocalReadModel.
 */
export class LocalKeyedModel<Doc extends { _id: string }, Kept> extends LocalReadModel<Doc> {
  private readonly held = new Map<string, Kept>();

  constructor(private readonly keep: (doc: Doc) => Kept | undefined) {
    super();
  }

  get size(): number {
    return this.held.size;
  }

  get(id: string): Kept | undefined {
    return this.held.get(id);
  }

  protected store(doc: Doc): void {
    const kept = this.keep(doc);
    if (kept === undefined) this.held.delete(doc._id);
    else this.held.set(doc._id, kept);
  }

  protected drop(id: string): void {
    this.held.delete(id);
  }
}
