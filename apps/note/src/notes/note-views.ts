import { Inject, Injectable } from '@nestjs/common';
import { Note, NoteComment, NoteFormat, SimpleUser, UserRecord } from '@plaza/contracts';
import { APP_CONFIG, formatTimestamp, UsersDirectory } from '@plaza/platform';
import { StoredComment } from '../comments/comments.repository';
import { NoteConfig } from '../config/note.config';
import { noteAbstract, renderNoteContent } from '../markup/note-render';
import { NotePictures } from '../pictures/note-pictures';
import { StoredNote } from './notes.repository';

/**
 * Notes and comments as the API shows them. Authors are resolved through identity in one call
 * per page; picture addresses are signed unless the note is public.
 */
@Injectable()
export class NoteViews {
  constructor(
    @Inject(APP_CONFIG) private readonly config: NoteConfig,
    private readonly users: UsersDirectory,
    private readonly pictures: NotePictures,
  ) {}

  async note(note: StoredNote, format: NoteFormat = 'text'): Promise<Note> {
    return (await this.notes([note], format))[0];
  }

  async notes(notes: StoredNote[], format: NoteFormat = 'text'): Promise<Note[]> {
    const authors = await this.users.resolve(notes.map((n) => n.author_id));
    return notes.map((note) => this.show(note, format, authors.get(note.author_id)));
  }

  async comment(comment: StoredComment): Promise<NoteComment> {
    return (await this.comments([comment]))[0];
  }

  async comments(comments: StoredComment[]): Promise<NoteComment[]> {
    const authors = await this.users.resolve(comments.map((c) => c.author_id));
    return comments.map((c) => ({
      id: c._id,
      created: this.time(c.created),
      content: c.content,
      author: simpleUser(c.author_id, authors.get(c.author_id)),
    }));
  }

  private show(note: StoredNote, format: NoteFormat, author: UserRecord | undefined): Note {
    const isPublic = note.privacy === 'public';
    const addresses = new Map(note.photos.map((p) => [p.number, p.url ?? this.pictures.address(p, isPublic)]));
    return {
      id: note._id,
      alt: `${this.config.PUBLIC_WEB_URL.replace(/\/$/, '')}/note/${note._id}/`,
      title: note.title,
      summary: noteAbstract(note.content),
      content: renderNoteContent(note.content, format, addresses),
      privacy: note.privacy,
      can_reply: note.can_reply,
      photos: Object.fromEntries([...addresses].sort(([a], [b]) => a - b).map(([n, url]) => [String(n), url])),
      update_time: this.time(note.update_time),
      publish_time: this.time(note.publish_time),
      comments_count: note.comments_count ?? 0,
      liked_count: note.liked_count ?? 0,
      recs_count: 0,
      author: simpleUser(note.author_id, author),
    };
  }

  private time(date: Date): string {
    return formatTimestamp(new Date(date), this.config.SERVICE_TIMEZONE);
  }
}

/** The Simple User of an author; identity no longer knowing the user leaves only the id. */
function simpleUser(id: string, user: UserRecord | undefined): SimpleUser {
  if (!user) return { id, uid: '', name: '', signature: '', alt: '', avatar: '' };
  return { id: user.id, uid: user.uid, name: user.name, signature: user.signature ?? '', alt: user.alt, avatar: user.avatar };
}
