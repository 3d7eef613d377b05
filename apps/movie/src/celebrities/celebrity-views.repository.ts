import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { MovieCelebrity, SimpleCelebrity } from '@plaza/contracts';
import { KeyedMutex } from '@plaza/platform';
import { DatabaseEngine } from '@plaza/service-kit';
import { Model } from 'mongoose';
import { createOrChange, VersionFilter } from '../common/store';
import { sortWorks, StoredWork } from './celebrity.render';
import { CelebrityViewDocument } from './celebrity-view.schema';

/** A change to one work of a celebrity: the work as it now is, or null when it no longer credits them. */
export type WorkChange = StoredWork | null;

/** The `celebrity_views` collection; each change is a compare-and-swap on `rev` on MongoDB, under the celebrity's lock in this instance. */
@Injectable()
export class CelebrityViewsRepository {
  private readonly lock = new KeyedMutex();
  private readonly versionFilter: VersionFilter;

  constructor(
    @InjectModel(CelebrityViewDocument.name) private readonly model: Model<CelebrityViewDocument>,
    engine: DatabaseEngine,
  ) {
    this.versionFilter = (id, rev) => engine.versionFilter('movie.celebrity-views.change', id, rev);
  }

  byId(id: string): Promise<CelebrityViewDocument | null> {
    return this.model.findById(id).lean<CelebrityViewDocument>().exec();
  }

  saveCelebrity(id: string, celebrity: MovieCelebrity, simple: SimpleCelebrity): Promise<void> {
    return this.upsert(id, () => ({ celebrity, simple }));
  }

  /** Applies changed works (keyed by subject id) and keeps the list in order. */
  applyWorks(id: string, changes: Map<string, WorkChange>): Promise<void> {
    return this.upsert(id, (current) => {
      const kept = (current?.works ?? []).filter((w) => !changes.has(w.subject_id));
      const added = [...changes.values()].filter((w): w is StoredWork => w !== null);
      return { works: sortWorks([...kept, ...added]) };
    });
  }

  /** Rewrites the photos part with what `compute` reads now, under the celebrity's lock (see SubjectViewsRepository.rebuildParts). */
  rebuildPhotos(id: string, compute: () => Promise<Pick<CelebrityViewDocument, 'photos' | 'photos_total'>>): Promise<void> {
    return this.lock.run(id, async () => {
      const parts = await compute();
      await createOrChange<CelebrityViewDocument>(
        this.model.collection,
        () => ({ _id: id, celebrity: null, simple: null, works: [], ...parts }),
        () => parts,
        this.versionFilter,
      );
    });
  }

  private upsert(id: string, change: (current: CelebrityViewDocument | null) => Partial<CelebrityViewDocument>): Promise<void> {
    return this.lock.run(id, async () => {
      await createOrChange<CelebrityViewDocument>(
        this.model.collection,
        () => ({ _id: id, celebrity: null, simple: null, works: [], photos: [], photos_total: 0, ...change(null) }),
        (current) => change(current),
        this.versionFilter,
      );
    });
  }
}
