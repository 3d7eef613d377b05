import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { NotePrivacy } from '@plaza/contracts';
import { DatabaseEngine, driverCollection, groupCounts, GroupedWrites } from '@plaza/service-kit';
import { FilterQuery, Model } from 'mongoose';
import { likeId, NoteLikeDocument } from './like.schema';

export type StoredLike = NoteLikeDocument;

const DUPLICATE_KEY = 11000;

/** The note_likes collection: one document per (note, user). */
@Injectable()
export class LikesRepository {
  /** The likes' inserts, sent together on the local engine when they come at once (grouped-writes.ts). */
  private readonly inserts: GroupedWrites<NoteLikeDocument>;

  constructor(
    @InjectModel(NoteLikeDocument.name) private readonly likes: Model<NoteLikeDocument>,
    private readonly engine: DatabaseEngine,
  ) {
    this.inserts = new GroupedWrites(engine, driverCollection(likes));
  }

  /** Stores a like; false when the user already liked the note (the insert is the atomic check). */
  async insert(like: Omit<StoredLike, '_id'>): Promise<boolean> {
    try {
      // built whole here: to the driver, past mongoose's casting
      await this.inserts.insertOne({ ...like, _id: likeId(like.note_id, like.user_id) });
      return true;
    } catch (err) {
      if ((err as { code?: number }).code === DUPLICATE_KEY) return false;
      throw err;
    }
  }

  /** The time of a like (import of a like that exists). */
  async setCreated(noteId: string, userId: string, created: Date): Promise<void> {
    await this.likes.updateOne({ _id: likeId(noteId, userId) }, { $set: { created } }).exec();
  }

  /** False when there was no such like. */
  async delete(noteId: string, userId: string): Promise<boolean> {
    const result = await this.engine.write(() => this.likes.deleteOne({ _id: likeId(noteId, userId) }).exec());
    return result.deletedCount > 0;
  }

  /** The source of a note's liked_count (indexed by `note_id` on MongoDB). */
  async countForNote(noteId: string): Promise<number> {
    return this.likes.countDocuments({ note_id: noteId }).exec();
  }

  /** For reconciliation of one note: its likes whose privacy copy is not `privacy` (the `note_id` index on MongoDB). */
  async countWithOtherPrivacy(noteId: string, privacy: NotePrivacy): Promise<number> {
    return this.likes.countDocuments({ note_id: noteId, note_privacy: { $ne: privacy } }).exec();
  }

  /** Per note, how many likes carry each privacy copy (one pass over the collection): reconciliation, and the local engine's count at start. */
  async summaryByNote(): Promise<Map<string, Map<NotePrivacy, number>>> {
    const rows = await groupCounts(this.engine, 'note.likes.counts', this.likes, ['note_id', 'note_privacy']);
    const summary = new Map<string, Map<NotePrivacy, number>>();
    for (const { key, n } of rows) {
      const byPrivacy = summary.get(key.note_id) ?? new Map<NotePrivacy, number>();
      byPrivacy.set(key.note_privacy, n);
      summary.set(key.note_id, byPrivacy);
    }
    return summary;
  }

  async deleteForNote(noteId: string): Promise<void> {
    await this.likes.deleteMany({ note_id: noteId }).exec();
  }

  async setPrivacyOfOne(noteId: string, userId: string, privacy: NotePrivacy): Promise<void> {
    await this.likes.updateOne({ _id: likeId(noteId, userId) }, { $set: { note_privacy: privacy } }).exec();
  }

  async setNotePrivacy(noteId: string, privacy: NotePrivacy): Promise<void> {
    await this.likes.updateMany({ note_id: noteId, note_privacy: { $ne: privacy } }, { $set: { note_privacy: privacy } }).exec();
  }

  /**
   * The likes of `userId` on notes `viewerId` may see (public ones, the viewer's own, and
   * friends-only notes of the viewer's friends), newest first.
   */
  async listVisible(userId: string, viewerId: string, viewerFriendIds: string[], start: number, count: number): Promise<{ total: number; likes: StoredLike[] }> {
    const visible: FilterQuery<NoteLikeDocument>[] = [{ note_privacy: 'public' }, { note_author_id: viewerId }];
    if (viewerFriendIds.length > 0) visible.push({ note_privacy: 'friend', note_author_id: { $in: viewerFriendIds } });
    const filter: FilterQuery<NoteLikeDocument> = { user_id: userId, $or: visible };
    const [total, likes] = await Promise.all([
      this.likes.countDocuments(filter).exec(),
      count === 0 ? [] : this.likes.find(filter).sort({ created: -1, _id: -1 }).skip(start).limit(count).lean<StoredLike[]>().exec(),
    ]);
    return { total, likes };
  }
}
