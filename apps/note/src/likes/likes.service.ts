import { Inject, Injectable } from '@nestjs/common';
import { ApiError, envelope, ListUserNotesRequest, Note, NoteList, NoteRequest } from '@plaza/contracts';
import { Clock, CLOCK, UsersDirectory, withinPageBudget } from '@plaza/platform';
import { NoteAccess, viewerOf } from '../notes/note-access';
import { NoteCounterWriter } from '../notes/note-counters';
import { NoteViews } from '../notes/note-views';
import { NotesRepository, StoredNote } from '../notes/notes.repository';
import { LikesRepository } from './likes.repository';

/**
 * Likes (CONTRACT.md section 5: 202 with the Note; liking twice changes nothing). The insert
 * (or delete) of the like document decides whether anything changes, atomically on both engines;
 * liked_count then moves through NoteCounterWriter, exact under concurrent likes.
 */
@Injectable()
export class LikesService {
  constructor(
    private readonly notes: NotesRepository,
    private readonly likes: LikesRepository,
    private readonly counters: NoteCounterWriter,
    private readonly access: NoteAccess,
    private readonly views: NoteViews,
    private readonly users: UsersDirectory,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async like(req: NoteRequest): Promise<Note> {
    const viewer = viewerOf(req.caller);
    const note = await this.access.readable(req.id, viewer);
    const added = await this.likes.insert({
      note_id: note._id, user_id: viewer, created: this.clock.now(), note_author_id: note.author_id, note_privacy: note.privacy,
    });
    if (!added) return this.views.note(note);
    const { note: after } = await this.counters.add(note._id, { liked_count: 1 }, async (current) => {
      // an edit may have changed the privacy since the read: keep the like's copy right
      if (current.privacy !== note.privacy) await this.likes.setPrivacyOfOne(note._id, viewer, current.privacy);
      return true;
    });
    if (!after) {
      // deleted meanwhile, perhaps after its likes were removed: remove this one too
      await this.likes.delete(note._id, viewer);
      throw new ApiError('target_not_found', `no note ${note._id}`);
    }
    return this.views.note(after);
  }

  async unlike(req: NoteRequest): Promise<Note> {
    const viewer = viewerOf(req.caller);
    const note = await this.access.readable(req.id, viewer);
    if (!(await this.likes.delete(note._id, viewer))) return this.views.note(note);
    const { note: after } = await this.counters.add(note._id, { liked_count: -1 });
    if (!after) throw new ApiError('target_not_found', `no note ${note._id}`);
    return this.views.note(after);
  }

  /** Notes `userId` liked that the caller may see, newest like first. */
  async listLiked(req: ListUserNotesRequest): Promise<NoteList> {
    const viewer = viewerOf(req.caller);
    await this.access.requireUser(req.userId);
    // friendship is mutual (CONTRACT.md section 7): the viewer's friends are the owners whose friends-only notes the viewer sees
    const friends = [...(await this.users.friendIds(viewer))];
    const { total, likes } = await this.likes.listVisible(req.userId, viewer, friends, req.page.start, req.page.count);
    const notes = await Promise.all(likes.map((like) => this.notes.byId(like.note_id)));
    // the copies in the likes decided the page; the notes themselves have the last word
    const shown: StoredNote[] = [];
    for (const note of notes) if (note && (await this.access.canRead(note, viewer))) shown.push(note);
    return envelope('notes', req.page.start, total, withinPageBudget(await this.views.notes(shown, req.format)));
  }

}
