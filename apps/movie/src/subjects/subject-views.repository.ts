import { Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { MovieSubject, SimpleSubject } from '@plaza/contracts';
import { KeyedMutex } from '@plaza/platform';
import { DatabaseEngine, LocalKeyedModel } from '@plaza/service-kit';
import { Model } from 'mongoose';
import { isDeepStrictEqual } from 'node:util';
import { changeFields, compact, createOrChange, mapLimit, VersionFilter } from '../common/store';
import { SubjectViewDocument } from './subject-view.schema';

/**
 * The `subject_views` collection. Its parts are written by different imports (subjects, photos,
 * reviews, comments), each a read-modify-write of one document: a compare-and-swap on `rev` on
 * MongoDB (any number of instances), under the subject's lock in this instance (the guard on the
 * local engine, whose updates are not isolated; see KeyedMutex).
 *
 * A search page shows each subject's Simple Subject: on the local engine those are held in memory
 * (`simples`), kept current by `saveSubject`, their only writer, since FerretDB decodes a whole
 * view (several KB) to read its `simple`, twenty times a page (docs/PERFORMANCE.md).
 */
@Injectable()
export class SubjectViewsRepository implements OnApplicationBootstrap {
  private readonly lock = new KeyedMutex();
  private readonly versionFilter: VersionFilter;
  private readonly heldSimples = new LocalKeyedModel<Pick<SubjectViewDocument, '_id' | 'simple'>, SimpleSubject>((doc) => doc.simple ?? undefined);

  constructor(
    @InjectModel(SubjectViewDocument.name) private readonly model: Model<SubjectViewDocument>,
    private readonly engine: DatabaseEngine,
  ) {
    this.versionFilter = (id, rev) => engine.versionFilter('movie.subject-views.change', id, rev);
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.heldSimples.preload(this.engine, () => this.allSimples());
  }

  private async *allSimples(): AsyncIterable<Pick<SubjectViewDocument, '_id' | 'simple'>> {
    yield* this.model.find({}, { simple: 1 }).lean<Array<Pick<SubjectViewDocument, '_id' | 'simple'>>>().cursor();
  }

  byId(id: string): Promise<SubjectViewDocument | null> {
    return this.model.findById(id).lean<SubjectViewDocument>().exec();
  }

  /**
   * Simple Subjects in the order of `ids` (ids with no view left out): on MongoDB one `$in` query on
   * `_id`; on the local engine from memory once loaded, until then parallel findById (FerretDB
   * scans for `$in`).
   */
  async simples(ids: string[]): Promise<SimpleSubject[]> {
    if (ids.length === 0) return [];
    return this.engine.run('movie.subject-views.simples', {
      mongodb: async () => {
        const docs = await this.model.find({ _id: { $in: ids } }, { simple: 1 }).limit(ids.length).lean<Array<Pick<SubjectViewDocument, '_id' | 'simple'>>>().exec();
        const byId = new Map(docs.map((d) => [d._id, d.simple]));
        return ids.map((id) => byId.get(id)).filter((s): s is SimpleSubject => Boolean(s));
      },
      local: async () => {
        if (this.heldSimples.loaded) return ids.map((id) => this.heldSimples.get(id)).filter((s): s is SimpleSubject => s !== undefined);
        const docs = await mapLimit(ids, 10, (id) => this.model.findById(id, { simple: 1 }).lean<Pick<SubjectViewDocument, 'simple'>>().exec());
        return docs.filter((d): d is Pick<SubjectViewDocument, 'simple'> => d !== null).map((d) => d.simple);
      },
    });
  }

  /** Writes the part rendered from the record; returns whether the Simple Subject changed (lists and works show it). */
  saveSubject(id: string, subject: MovieSubject, simple: SimpleSubject): Promise<{ simpleChanged: boolean }> {
    return this.lock.run(id, async () => {
      const { previous } = await createOrChange<SubjectViewDocument>(
        this.model.collection,
        () => ({ _id: id, subject, simple, photos: [], photos_total: 0, popular_reviews: [], reviews_total: 0, comments_total: 0 }),
        () => ({ subject, simple }),
        this.versionFilter,
      );
      await this.engine.run('movie.subject-views.simples-upkeep', {
        mongodb: () => undefined,
        local: () => this.heldSimples.put({ _id: id, simple: compact(simple) }),
      });
      return { simpleChanged: !previous || !isDeepStrictEqual(previous.simple, compact(simple)) };
    });
  }

  /**
   * Rewrites derived parts (photos, reviews, totals) with what `compute` reads now. It reads under
   * the subject's lock, and again when another instance wrote the view meanwhile, so of two
   * imports touching one subject the later rebuild sees both.
   */
  rebuildParts(id: string, compute: () => Promise<Partial<SubjectViewDocument>>): Promise<void> {
    return this.lock.run(id, () => changeFields(this.model.collection, () => this.byId(id), () => compute(), this.versionFilter));
  }
}
