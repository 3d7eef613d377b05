import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { NotePrivacy } from '@plaza/contracts';
import { KeyedMutex } from '@plaza/platform';
import { Model } from 'mongoose';
import { NoteDocument } from './note.schema';

export type StoredNote = NoteDocument;
export type NoteCounters = Partial<Pick<NoteDocument, 'liked_count' | 'comments_count'>>;

/**
 * The notes collection. Every change of a note document runs inside `exclusive(id, ...)`: on
 * FerretDB v1 an update is read, change, write back without isolation, so two unserialised
 * writes of one note (a like and an edit, say) could lose one another (docs/DEVELOPING.md).
 */
@Injectable()
export class NotesRepository {
  private readonly lock = new KeyedMutex();

  constructor(@InjectModel(NoteDocument.name) private readonly notes: Model<NoteDocument>) {}

  /** Runs a read-modify-write of one note alone. Not re-entrant: never nest two for one id. */
  exclusive<T>(id: string, task: () => Promise<T>): Promise<T> {
    return this.lock.run(id, task);
  }

  async byId(id: string): Promise<StoredNote | null> {
    return this.notes.findById(id).lean<StoredNote>().exec();
  }

  async insert(note: StoredNote): Promise<void> {
    await this.notes.create(note);
  }

  /** Sets fields (never the counters); inside `exclusive`. */
  async update(id: string, changes: Partial<Omit<StoredNote, '_id' | 'liked_count' | 'comments_count'>>): Promise<void> {
    await this.notes.updateOne({ _id: id }, { $set: changes }).exec();
  }

  /** Adds to the counters; inside `exclusive`. False when the note is gone. */
  async addToCounters(id: string, delta: NoteCounters): Promise<boolean> {
    const result = await this.notes.updateOne({ _id: id }, { $inc: delta }).exec();
    return result.matchedCount > 0;
  }

  /** Inside `exclusive`. False when there was no such note. */
  async delete(id: string): Promise<boolean> {
    const result = await this.notes.deleteOne({ _id: id }).exec();
    return result.deletedCount > 0;
  }

  /** A user's notes of the given privacies, newest first. */
  async listByAuthor(authorId: string, privacies: NotePrivacy[], start: number, count: number): Promise<{ total: number; notes: StoredNote[] }> {
    const filter = { author_id: authorId, privacy: { $in: privacies } };
    const [total, notes] = await Promise.all([
      this.notes.countDocuments(filter).exec(),
      count === 0 ? [] : this.notes.find(filter).sort({ publish_time: -1, _id: -1 }).skip(start).limit(count).lean<StoredNote[]>().exec(),
    ]);
    return { total, notes };
  }
}
