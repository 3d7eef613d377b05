import { SimpleSubject, SimpleUser } from '@plaza/contracts';
import { KeyedMutex } from '@plaza/platform';
import { WorkChange } from '../celebrities/celebrity-views.repository';
import { ListingChange } from '../media/listings.repository';

/**
 * What one import batch changed beyond the records themselves, collected while its lines are
 * stored and applied once at the end: one rewrite per listing, view part, celebrity and list per
 * batch instead of one per line.
 */
export class ImportSession {
  /** celebrity id → subject id → the work as it now is (null: no longer credited). */
  readonly works = new Map<string, Map<string, WorkChange>>();
  /** Subjects whose Simple Subject changed: the lists showing them are refreshed. */
  readonly simples = new Map<string, SimpleSubject>();
  readonly listings = new Map<string, ListingChange>();
  /** Views whose derived parts are rebuilt from their listings. */
  readonly refresh = {
    subjectPhotos: new Set<string>(),
    subjectReviews: new Set<string>(),
    subjectComments: new Set<string>(),
    celebrityPhotos: new Set<string>(),
  };
  /** Lines of one batch naming the same record run one after the other. */
  readonly records = new KeyedMutex();
  private readonly memo = new Map<string, Promise<unknown>>();

  constructor(readonly authors: Map<string, SimpleUser>) {}

  work(celebrityId: string, subjectId: string, change: WorkChange): void {
    let changes = this.works.get(celebrityId);
    if (!changes) this.works.set(celebrityId, (changes = new Map()));
    changes.set(subjectId, change);
  }

  listingPut(listing: string, id: string, key: string): void {
    const change = this.listing(listing);
    change.remove.delete(id);
    change.put.set(id, key);
  }

  listingRemove(listing: string, id: string): void {
    const change = this.listing(listing);
    change.put.delete(id);
    change.remove.add(id);
  }

  /** Looks a value up once per batch (a subject's existence, for every photo of it). */
  once<T>(key: string, load: () => Promise<T>): Promise<T> {
    if (!this.memo.has(key)) this.memo.set(key, load());
    return this.memo.get(key) as Promise<T>;
  }

  private listing(listing: string): ListingChange {
    let change = this.listings.get(listing);
    if (!change) this.listings.set(listing, (change = { put: new Map(), remove: new Set() }));
    return change;
  }
}
