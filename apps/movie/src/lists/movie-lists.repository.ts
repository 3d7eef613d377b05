import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { KeyedMutex } from '@plaza/platform';
import { Model } from 'mongoose';
import { putById, setFields } from '../shared/store';
import { MovieListDocument, StoredListEntry } from './movie-list.schema';

/** The `movie_lists` collection: a handful of documents (six lists, in_theaters per city). */
@Injectable()
export class MovieListsRepository {
  private readonly lock = new KeyedMutex();

  constructor(@InjectModel(MovieListDocument.name) private readonly model: Model<MovieListDocument>) {}

  byId(id: string): Promise<MovieListDocument | null> {
    return this.model.findById(id).lean<MovieListDocument>().exec();
  }

  put(doc: MovieListDocument) {
    return this.lock.run(doc._id, () => putById(this.model.collection, doc));
  }

  /** Every list's id and subject ids: few and small, so reading them all is cheap. */
  all(): Promise<Array<Pick<MovieListDocument, '_id' | 'entries'>>> {
    return this.model.find({}, { entries: 1 }).lean<Array<Pick<MovieListDocument, '_id' | 'entries'>>>().exec();
  }

  /** Rewrites entries with `change` applied (a subject's new Simple Subject, say). */
  updateEntries(id: string, change: (entries: StoredListEntry[]) => StoredListEntry[]): Promise<void> {
    return this.lock.run(id, async () => {
      const current = await this.byId(id);
      if (current) await setFields(this.model.collection, current, { entries: change(current.entries) });
    });
  }
}
