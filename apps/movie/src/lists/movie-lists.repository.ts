import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { KeyedMutex } from '@plaza/platform';
import { DatabaseEngine } from '@plaza/service-kit';
import { Model } from 'mongoose';
import { changeFields, putById, VersionFilter } from '../common/store';
import { MovieListDocument, StoredListEntry } from './movie-list.schema';

/** The `movie_lists` collection: a handful of documents (six lists, in_theaters per city). */
@Injectable()
export class MovieListsRepository {
  private readonly lock = new KeyedMutex();
  private readonly versionFilter: VersionFilter;

  /** An import replaces a list and a subject import rewrites its entries: both compare-and-swaps on `rev` on MongoDB. */
  constructor(
    @InjectModel(MovieListDocument.name) private readonly model: Model<MovieListDocument>,
    engine: DatabaseEngine,
  ) {
    this.versionFilter = (id, rev) => engine.versionFilter('movie.lists.change', id, rev);
  }

  byId(id: string): Promise<MovieListDocument | null> {
    return this.model.findById(id).lean<MovieListDocument>().exec();
  }

  put(doc: MovieListDocument) {
    return this.lock.run(doc._id, () => putById(this.model.collection, doc, this.versionFilter));
  }

  /** Every list's id and subject ids: few and small, so reading them all is cheap. */
  all(): Promise<Array<Pick<MovieListDocument, '_id' | 'entries'>>> {
    return this.model.find({}, { entries: 1 }).lean<Array<Pick<MovieListDocument, '_id' | 'entries'>>>().exec();
  }

  /** Rewrites entries with `change` applied (a subject's new Simple Subject, say). */
  async updateEntries(id: string, change: (entries: StoredListEntry[]) => StoredListEntry[]): Promise<void> {
    await this.lock.run(id, () => changeFields(this.model.collection, () => this.byId(id), (current) => ({ entries: change(current.entries) }), this.versionFilter));
  }
}
