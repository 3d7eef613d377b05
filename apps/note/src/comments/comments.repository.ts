import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { DatabaseEngine, groupCounts } from '@plaza/service-kit';
import { Model } from 'mongoose';
import { NoteCommentDocument } from './comment.schema';

export type StoredComment = NoteCommentDocument;

/** The note_comments collection. */
@Injectable()
export class CommentsRepository {
  constructor(
    @InjectModel(NoteCommentDocument.name) private readonly comments: Model<NoteCommentDocument>,
    private readonly engine: DatabaseEngine,
  ) {}

  async byId(id: string): Promise<StoredComment | null> {
    return this.comments.findById(id).lean<StoredComment>().exec();
  }

  async insert(comment: StoredComment): Promise<void> {
    await this.comments.create(comment);
  }

  /** Inserts or replaces a comment by id (import); the comment it replaced, if any. Insert first: an upsert of a missing `_id` scans on FerretDB v1. */
  async put(comment: StoredComment): Promise<StoredComment | null> {
    try {
      await this.comments.collection.insertOne(comment as never);
      return null;
    } catch (err) {
      if ((err as { code?: number }).code !== 11000) throw err;
    }
    const previous = await this.byId(comment._id);
    await this.comments.collection.replaceOne({ _id: comment._id } as never, comment as never);
    return previous;
  }

  /** False when there was no such comment (a racing delete got it first). */
  async delete(id: string): Promise<boolean> {
    const result = await this.comments.deleteOne({ _id: id }).exec();
    return result.deletedCount > 0;
  }

  /** The source of a note's comments_count (the `note_id` index on MongoDB). */
  async countForNote(noteId: string): Promise<number> {
    return this.comments.countDocuments({ note_id: noteId }).exec();
  }

  /** For reconciliation: how many comments each note has (one pass over the collection). */
  async countsByNote(): Promise<Map<string, number>> {
    const rows = await groupCounts(this.engine, 'note.comments.counts', this.comments, ['note_id']);
    return new Map(rows.map(({ key, n }) => [key.note_id, n]));
  }

  async deleteForNote(noteId: string): Promise<void> {
    await this.comments.deleteMany({ note_id: noteId }).exec();
  }

  /** A note's comments, oldest first. */
  async listForNote(noteId: string, start: number, count: number): Promise<{ total: number; comments: StoredComment[] }> {
    const filter = { note_id: noteId };
    const [total, comments] = await Promise.all([
      this.comments.countDocuments(filter).exec(),
      count === 0 ? [] : this.comments.find(filter).sort({ created: 1, _id: 1 }).skip(start).limit(count).lean<StoredComment[]>().exec(),
    ]);
    return { total, comments };
  }
}
