import { captureQueries, MONGODB_ENGINE, unboundedQueries, unindexedQueries } from '@plaza/service-kit';
import mongoose from 'mongoose';
import { NoteCommentDocument, NoteCommentSchema } from '../comments/comment.schema';
import { CommentsRepository } from '../comments/comments.repository';
import { NoteLikeDocument, NoteLikeSchema } from '../likes/like.schema';
import { LikesRepository } from '../likes/likes.repository';
import { NoteLocalEngine } from './local-engine';
import { NoteDocument, NoteSchema } from './note.schema';
import { NotesRepository } from './notes.repository';

/** Every list query of the note service has an index on MongoDB (FerretDB ignores secondary indexes). */
const db = new mongoose.Mongoose();
const noteModel = db.model(NoteDocument.name, NoteSchema) as never;
// the MongoDB branch of the lists (the local one reads NoteLocalEngine's notes held by author)
const likes = new LikesRepository(db.model(NoteLikeDocument.name, NoteLikeSchema) as never, MONGODB_ENGINE);
const comments = new CommentsRepository(db.model(NoteCommentDocument.name, NoteCommentSchema) as never, MONGODB_ENGINE);
const notes = new NotesRepository(noteModel, MONGODB_ENGINE, new NoteLocalEngine(noteModel, likes, comments, MONGODB_ENGINE));

describe('note queries use indexes on MongoDB', () => {
  it("a user's notes (each privacy set), liked notes, and a note's comments, with their counts", async () => {
    const queries = await captureQueries(async () => {
      await notes.listByAuthor('100001', ['public'], 0, 20);
      await notes.listByAuthor('100001', ['public', 'friend', 'private'], 20, 20);
      await likes.listVisible('100001', '100002', ['100003'], 0, 20);
      await likes.listVisible('100001', '100002', [], 0, 20);
      await comments.listForNote('42', 0, 20);
      // the recounts after each like and comment (NoteCounterWriter)
      await likes.countForNote('42');
      await comments.countForNote('42');
      // reconcile's check of one note (NoteRepair)
      await likes.countWithOtherPrivacy('42', 'public');
    });
    expect(queries).toHaveLength(13);
    expect(unindexedQueries(queries)).toEqual([]);
    // a request reads its page, never every match
    expect(unboundedQueries(queries)).toEqual([]);
  });
});
