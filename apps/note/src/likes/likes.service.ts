import { Inject, Injectable } from '@nestjs/common';
import { ApiError, envelope, ListUserNotesRequest, Note, NoteList, NoteRequest } from '@plaza/contracts';
import { Clock, CLOCK, UsersDirectory, withinPageBudget } from '@plaza/platform';
import { NoteAccess, viewerOf } from '../notes/note-access';
import { NoteCounterWriter, SourceChange } from '../notes/note-counters';
import { NoteViews } from '../notes/note-views';
import { NotesRepository, StoredNote } from '../notes/notes.repository';
import { NoteRepair } from '../recovery/note-repair';
import { LikesRepository } from './likes.repository';

/**
 * Likes (docs/api/note.md: 202 with the Note; liking twice changes nothing). The insert
 * (or delete) of the like document decides whether anything changes, atomically on both engines;
 * it runs under the note's lock and liked_count follows it (NoteCounterWriter), exact under
 * concurrent likes. A crash between the two steps cannot leave liked_count off
 * (NoteRepair.counterWrite).
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
    private readonly repair: NoteRepair,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async like(req: NoteRequest): Promise<Note> {
    const viewer = viewerOf(req.caller);
    const note = await this.access.readable(req.id, viewer);
    return this.views.note(await this.changeLike(note._id, async (current) => {
      // the privacy copy from the note as it is under its lock: an edit changes both under it
      const added = await this.likes.insert({
        note_id: current._id, user_id: viewer, created: this.clock.now(), note_author_id: current.author_id, note_privacy: current.privacy,
      });
      return added ? 1 : 0;
    }));
  }

  async unlike(req: NoteRequest): Promise<Note> {
    const viewer = viewerOf(req.caller);
    const note = await this.access.readable(req.id, viewer);
    return this.views.note(await this.changeLike(note._id, async () => ((await this.likes.delete(note._id, viewer)) ? -1 : 0)));
  }

  /**
   * Account deletion (docs/api/account.md): the user's like of a note removed and liked_count moved
   * back, whatever the note's privacy now; a like of a note that is gone is just deleted.
   */
  async eraseLike(noteId: string, userId: string): Promise<boolean> {
    if (!(await this.notes.byId(noteId))) return this.likes.delete(noteId, userId);
    let removed = false;
    await this.changeLike(noteId, async () => {
      removed = await this.likes.delete(noteId, userId);
      return removed ? -1 : 0;
    });
    return removed;
  }

  /** A like's insert or delete and liked_count after it, guarded against a crash between them (NoteRepair.counterWrite). */
  private async changeLike(noteId: string, change: SourceChange): Promise<StoredNote> {
    return this.repair.counterWrite(noteId, async () => {
      const { note } = await this.counters.change(noteId, 'liked_count', change);
      if (!note) throw new ApiError('target_not_found', `no note ${noteId}`);
      return note;
    });
  }

  /** Notes `userId` liked that the caller may see, newest like first. */
  async listLiked(req: ListUserNotesRequest): Promise<NoteList> {
    const viewer = viewerOf(req.caller);
    await this.access.requireUser(req.userId);
    // friendship is mutual (docs/api/note.md): the viewer's friends are the owners whose friends-only notes the viewer sees
    const friends = [...(await this.users.friendIds(viewer))];
    const { total, likes } = await this.likes.listVisible(req.userId, viewer, friends, req.page.start, req.page.count);
    const notes = await Promise.all(likes.map((like) => this.notes.byId(like.note_id)));
    // the copies in the likes decided the page; the notes themselves have the last word
    const shown: StoredNote[] = [];
    for (const note of notes) if (note && (await this.access.canRead(note, viewer))) shown.push(note);
    return envelope('notes', req.page.start, total, withinPageBudget(await this.views.notes(shown, req.format)));
  }

}
