import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { ApiError } from '@plaza/contracts';
import { KeyedMutex } from '@plaza/platform';
import { Model } from 'mongoose';
import { isDuplicateKey } from '../common/store';
import { SubjectImdbDocument } from './subject-imdb.schema';

/**
 * The `subject_imdb` collection: IMDb id → subject. A subject's record is the truth; an entry is
 * written before the record that names the id (so a record never names an id it does not hold)
 * and removed after the record stops naming it. An entry whose subject no longer names the id
 * (left by an import that stopped midway) is taken over by the next subject that claims it, and
 * reads check the subject's record, so such an entry never answers.
 */
@Injectable()
export class SubjectImdbRepository {
  /** Claims of one id in this instance, one at a time: a claim and the record write that follows it. */
  private readonly lock = new KeyedMutex();

  constructor(@InjectModel(SubjectImdbDocument.name) private readonly model: Model<SubjectImdbDocument>) {}

  byImdb(imdb: string): Promise<SubjectImdbDocument | null> {
    return this.model.findById(imdb).lean<SubjectImdbDocument>().exec();
  }

  /**
   * Runs `write` (the subject's record write) holding `imdb` for `subjectId`. Fails the import
   * line when another subject's record names the id (`holderNames(otherId)` says so).
   */
  async claim<T>(imdb: string, subjectId: string, holderNames: (otherId: string) => Promise<boolean>, write: () => Promise<T>): Promise<T> {
    return this.lock.run(imdb, async () => {
      for (let attempt = 0; attempt < 5; attempt++) {
        try {
          await this.model.collection.insertOne({ _id: imdb, subject_id: subjectId } as never);
          return write();
        } catch (err) {
          if (!isDuplicateKey(err)) throw err;
        }
        const current = await this.byImdb(imdb);
        if (!current) continue; // released meanwhile: insert again
        if (current.subject_id === subjectId) return write();
        if (await holderNames(current.subject_id)) {
          throw new ApiError('invalid_args', `imdb ${imdb} is already the movie subject ${current.subject_id}'s`);
        }
        // a stale entry: take it over only if it is still the one read (another claim may have won)
        const taken = await this.model.collection.updateOne({ _id: imdb, subject_id: current.subject_id } as never, { $set: { subject_id: subjectId } });
        if (taken.matchedCount === 1) return write();
      }
      throw new Error(`imdb ${imdb} kept changing while being claimed`);
    });
  }

  /** Drops the entry of an id the subject no longer names (only if it is still that subject's). */
  async release(imdb: string, subjectId: string): Promise<void> {
    await this.lock.run(imdb, () => this.model.collection.deleteOne({ _id: imdb, subject_id: subjectId } as never));
  }
}
