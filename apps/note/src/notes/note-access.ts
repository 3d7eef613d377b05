import { Injectable } from '@nestjs/common';
import { ApiError, Caller, NotePrivacy } from '@plaza/contracts';
import { UsersDirectory } from '@plaza/platform';
import { NotesRepository, StoredNote } from './notes.repository';

/** The logged-in user a note message is for (the gateway lets no anonymous call through; this is the second line). */
export function viewerOf(caller: Caller): string {
  if (!caller.userId) throw new ApiError('need_permission', 'a logged-in user is required');
  return caller.userId;
}

/**
 * Who may see and change a note (docs/api/note.md): public notes everyone, friends-only
 * notes the owner and the owner's friends (friendship is identity's), private notes the owner;
 * only the owner changes a note. A missing note is 400/1006, any refusal 403/1000.
 */
@Injectable()
export class NoteAccess {
  constructor(
    private readonly notes: NotesRepository,
    private readonly users: UsersDirectory,
  ) {}

  async canRead(note: StoredNote, viewerId: string): Promise<boolean> {
    switch (note.privacy) {
      case 'public':
        return true;
      case 'private':
        return note.author_id === viewerId;
      case 'friend':
        return note.author_id === viewerId || this.users.areFriends(note.author_id, viewerId);
    }
  }

  async existing(id: string): Promise<StoredNote> {
    const note = await this.notes.byId(id);
    if (!note) throw new ApiError('target_not_found', `no note ${id}`);
    return note;
  }

  async readable(id: string, viewerId: string): Promise<StoredNote> {
    const note = await this.existing(id);
    if (!(await this.canRead(note, viewerId))) throw new ApiError('need_permission', 'the note is not visible to you');
    return note;
  }

  async owned(id: string, viewerId: string): Promise<StoredNote> {
    const note = await this.existing(id);
    if (note.author_id !== viewerId) throw new ApiError('need_permission', 'only the author may change the note');
    return note;
  }

  /** The privacies of `ownerId`'s notes that `viewerId` may see. */
  async visiblePrivacies(ownerId: string, viewerId: string): Promise<NotePrivacy[]> {
    if (ownerId === viewerId) return ['public', 'friend', 'private'];
    return (await this.users.areFriends(ownerId, viewerId)) ? ['public', 'friend'] : ['public'];
  }

  /**
   * A user named by id in a path; an unknown one is 404/1001 (docs/api/note.md). The id, not
   * a uid that happens to be digits: the lists are of that id's notes.
   */
  async requireUser(userId: string): Promise<void> {
    if ((await this.users.find(userId))?.id !== userId) throw new ApiError('uri_not_found', `no user ${userId}`);
  }
}
