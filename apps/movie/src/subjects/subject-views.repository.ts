import { Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { MovieSubject, SimpleSubject } from '@plaza/contracts';
import { KeyedMutex } from '@plaza/platform';
import { DatabaseEngine, LocalKeyedModel, packJson, unpackJson } from '@plaza/service-kit';
import { Model } from 'mongoose';
import { isDeepStrictEqual } from 'node:util';
import { changeFields, compact, createOrChange, mapLimit, VersionFilter } from '../common/store';
import { SubjectViewDocument } from './subject-view.schema';

/** A view as held on the local engine: its Simple Subject for search pages, the whole view packed for reads by id. */
interface HeldView {
  simple: SimpleSubject;
  packed: Buffer;
}

/**
 * The `subject_views` collection. Its parts are written by different imports (subjects, photos,
 * reviews, comments), each a read-modify-write of one document: a compare-and-swap on `rev` on
 * MongoDB (any number of instances), under the subject's lock in this instance (the guard on the
 * local engine, whose updates are not isolated; see KeyedMutex).
 *
 * A search page shows each subject's Simple Subject: on the local engine those are held in memory
 * (`simples`), kept current by `saveSubject`, their only writer, since FerretDB decodes a whole
 * view (several KB) to read its `simple`, twenty times a page (docs/PERFORMANCE.md).
 *
 * A read by id is the view whole: on the local engine it is held too, as its JSON text deflated
 * (`byId`). FerretDB's decoding of one view costs about 3 ms of CPU; inflating and parsing its
 * text about 30 µs, and a view of about 4 KB of JSON takes about 1 KB held. Both are loaded in
 * one pass and kept current after each write of this repository, the collection's only writer
 * (docs/ENGINES.md, `movie.subject-views.by-id`).
 */
@Injectable()
export class SubjectViewsRepository implements OnApplicationBootstrap {
  private readonly lock = new KeyedMutex();
  private readonly versionFilter: VersionFilter;
  private readonly held = new LocalKeyedModel<SubjectViewDocument, HeldView>((doc) => ({ simple: doc.simple, packed: packJson(doc) }));

  constructor(
    @InjectModel(SubjectViewDocument.name) private readonly model: Model<SubjectViewDocument>,
    private readonly engine: DatabaseEngine,
  ) {
    this.versionFilter = (id, rev) => engine.versionFilter('movie.subject-views.change', id, rev);
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.held.preload(this.engine, () => this.model.find({}).lean<SubjectViewDocument[]>().cursor());
  }

  /** The view as stored: from memory on the local engine once loaded (each read a copy of its own). */
  byId(id: string): Promise<SubjectViewDocument | null> {
    return this.engine.run('movie.subject-views.by-id', {
      mongodb: () => this.stored(id),
      local: async () => {
        if (!this.held.loaded) return this.stored(id);
        const view = this.held.get(id);
        return view === undefined ? null : unpackJson<SubjectViewDocument>(view.packed);
      },
    });
  }

  private stored(id: string): Promise<SubjectViewDocument | null> {
    return this.model.findById(id).lean<SubjectViewDocument>().exec();
  }

  /**
   * After a write of the view (under its lock): the held copy becomes the document the write left
   * (`createOrChange` and `changeFields` return it), with no read back; null when there is none.
   */
  private async keepHeld(id: string, branch: string, stored: SubjectViewDocument | null): Promise<void> {
    await this.engine.run(branch, {
      mongodb: () => undefined,
      local: () => {
        if (stored) this.held.put(stored);
        else this.held.remove(id);
      },
    });
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
        if (this.held.loaded) return ids.map((id) => this.held.get(id)?.simple).filter((s): s is SimpleSubject => s !== undefined);
        const docs = await mapLimit(ids, 10, (id) => this.model.findById(id, { simple: 1 }).lean<Pick<SubjectViewDocument, 'simple'>>().exec());
        return docs.filter((d): d is Pick<SubjectViewDocument, 'simple'> => d !== null).map((d) => d.simple);
      },
    });
  }

  /** Writes the part rendered from the record; returns whether the Simple Subject changed (lists and works show it). */
  saveSubject(id: string, subject: MovieSubject, simple: SimpleSubject): Promise<{ simpleChanged: boolean }> {
    return this.lock.run(id, async () => {
      const { previous, stored } = await createOrChange<SubjectViewDocument>(
        this.model.collection,
        () => ({ _id: id, subject, simple, photos: [], photos_total: 0, popular_reviews: [], reviews_total: 0, comments_total: 0 }),
        () => ({ subject, simple }),
        this.versionFilter,
      );
      await this.keepHeld(id, 'movie.subject-views.simples-upkeep', stored);
      return { simpleChanged: !previous || !isDeepStrictEqual(previous.simple, compact(simple)) };
    });
  }

  /**
   * Rewrites derived parts (photos, reviews, totals) with what `compute` reads now. It reads under
   * the subject's lock, and again when another instance wrote the view meanwhile, so of two
   * imports touching one subject the later rebuild sees both.
   */
  rebuildParts(id: string, compute: () => Promise<Partial<SubjectViewDocument>>): Promise<void> {
    return this.lock.run(id, async () => {
      // the read of a read-modify-write is the stored document, never the held copy
      const stored = await changeFields(this.model.collection, () => this.stored(id), () => compute(), this.versionFilter);
      await this.keepHeld(id, 'movie.subject-views.by-id-upkeep', stored);
    });
  }
}
