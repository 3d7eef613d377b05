import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { KeyedMutex } from '@plaza/platform';
import { DatabaseEngine } from '@plaza/service-kit';
import { Model } from 'mongoose';
import { createOrChange, VersionFilter } from '../common/store';
import { ListingDocument } from './listing.schema';

/** Changes to one listing: ids to (re)place with their sort keys, ids to drop. */
export interface ListingChange {
  put: Map<string, string>;
  remove: Set<string>;
}

/** The `listings` collection; each rewrite is a compare-and-swap on `rev` on MongoDB, under the listing's lock in this instance. */
@Injectable()
export class ListingsRepository {
  private readonly lock = new KeyedMutex();
  private readonly versionFilter: VersionFilter;

  constructor(
    @InjectModel(ListingDocument.name) private readonly model: Model<ListingDocument>,
    engine: DatabaseEngine,
  ) {
    this.versionFilter = (id, rev) => engine.versionFilter('movie.listings.change', id, rev);
  }

  /** The ordered ids (empty when nothing was loaded). */
  async ids(listing: string): Promise<string[]> {
    const doc = await this.model.findById(listing, { ids: 1 }).lean<Pick<ListingDocument, 'ids'>>().exec();
    return doc?.ids ?? [];
  }

  /** Applies a batch of changes at once (one rewrite per listing per import batch); returns the new order. */
  apply(listing: string, change: ListingChange): Promise<string[]> {
    return this.lock.run(listing, async () => {
      const merged = (current: ListingDocument | null) => {
        const entries = new Map<string, string>();
        current?.ids.forEach((id, i) => entries.set(id, current.keys[i]));
        for (const id of change.remove) entries.delete(id);
        for (const [id, key] of change.put) entries.set(id, key);
        const sorted = [...entries].sort((a, b) => (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0));
        return { ids: sorted.map(([id]) => id), keys: sorted.map(([, key]) => key) };
      };
      let result = merged(null);
      await createOrChange<ListingDocument>(this.model.collection, () => ({ _id: listing, ...merged(null) }), (current) => (result = merged(current)), this.versionFilter);
      return result.ids;
    });
  }
}
