import { Inject, Injectable } from '@nestjs/common';
import {
  AddNotePicturesRequest, ApiError, BannedWords, CreateNoteRequest, envelope, GetNoteRequest, GetPublicNoteRequest, ListUserNotesRequest, MAX_NOTE_CONTENT_LENGTH, Note, NoteList,
  NoteRequest, UpdateNoteRequest,
} from '@plaza/contracts';
import { Clock, CLOCK, withinPageBudget } from '@plaza/platform';
import { Sequences } from '@plaza/service-kit';
import { CommentsRepository } from '../comments/comments.repository';
import { LikesRepository } from '../likes/likes.repository';
import { cleanText, normalizeNoteContent, PictureText } from '../markup/note-markup';
import { NotePictures } from '../pictures/note-pictures';
import { NoteRepair, noteTarget } from '../recovery/note-repair';
import { NoteAccess, viewerOf } from './note-access';
import { keysOf, mergePictures, pictureTexts } from './note-pictures.merge';
import { NotePhoto } from './note.schema';
import { NoteViews } from './note-views';
import { NotesRepository, StoredNote } from './notes.repository';

type NoteChanges = Pick<StoredNote, 'content' | 'photos' | 'update_time'> & Partial<Pick<StoredNote, 'title' | 'privacy' | 'can_reply'>>;

/** Writing, reading, listing and deleting notes. */
@Injectable()
export class NotesService {
  constructor(
    private readonly notes: NotesRepository,
    private readonly likes: LikesRepository,
    private readonly comments: CommentsRepository,
    private readonly access: NoteAccess,
    private readonly views: NoteViews,
    private readonly pictures: NotePictures,
    private readonly sequences: Sequences,
    private readonly repair: NoteRepair,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async create(req: CreateNoteRequest): Promise<Note> {
    const authorId = viewerOf(req.caller);
    // everything that can refuse the write runs before anything is stored
    const { photos, added } = mergePictures([], req.uploads);
    const content = storedContent(req.note.content, pictureTexts(photos));
    const privacy = req.note.privacy ?? 'public';
    const now = this.clock.now();
    const note: StoredNote = {
      _id: String(await this.sequences.next('note')),
      author_id: authorId,
      title: cleanTitle(req.note.title),
      content,
      privacy,
      can_reply: req.note.can_reply ?? true,
      photos,
      publish_time: now,
      update_time: now,
      liked_count: 0,
      comments_count: 0,
    };
    // pictures accepted and then the note that uses them: a crash between leaves them to the repair
    await this.withPictures(note._id, keysOf(added), async () => {
      await this.pictures.setVisibility(keysOf(added), privacy === 'public');
      await this.notes.insert(note);
    });
    return this.views.note(note);
  }

  async get(req: GetNoteRequest): Promise<Note> {
    const note = await this.access.readable(req.id, viewerOf(req.caller));
    return this.views.note(note, req.format);
  }

  /** A note for anyone, signed in or not (its web page): only a public one; 1006 when missing, 403/1000 otherwise. */
  async getPublic(req: GetPublicNoteRequest): Promise<Note> {
    const note = await this.access.existing(req.id);
    if (note.privacy !== 'public') throw new ApiError('need_permission', 'the note is not public');
    return this.views.note(note, req.format);
  }

  /**
   * PUT: title and content replace the old ones, can_reply is true unless sent, and privacy
   * stays as it was unless sent (a private note never turns public by omission).
   */
  async update(req: UpdateNoteRequest): Promise<Note> {
    const viewer = viewerOf(req.caller);
    const note = await this.notes.exclusive(req.id, async () => {
      const current = await this.access.owned(req.id, viewer);
      const { photos, added } = mergePictures(current.photos, req.uploads);
      const changes: NoteChanges = {
        title: cleanTitle(req.note.title),
        content: storedContent(req.note.content, pictureTexts(photos)),
        privacy: req.note.privacy ?? current.privacy,
        can_reply: req.note.can_reply ?? true,
        photos,
        update_time: this.clock.now(),
      };
      return this.save(current, changes, added);
    });
    return this.views.note(note);
  }

  /** POST /v2/note/:id: adds pictures; without content they are appended at the end of the note. */
  async addPictures(req: AddNotePicturesRequest): Promise<Note> {
    const viewer = viewerOf(req.caller);
    if (req.uploads.pictures.length === 0) throw new ApiError('missing_args', 'no picture was sent');
    const note = await this.notes.exclusive(req.id, async () => {
      const current = await this.access.owned(req.id, viewer);
      const { photos, added } = mergePictures(current.photos, req.uploads);
      // appended as references, read again with the rest: the stored form stays unambiguous
      const content = storedContent(
        req.input.content ?? current.content + added.map((p) => `\n<图片p_${p.number}>`).join(''),
        pictureTexts(photos),
      );
      return this.save(current, { content, photos, update_time: this.clock.now() }, added);
    });
    return this.views.note(note);
  }

  /**
   * Deletes the note, then what hangs on it. The note goes first: if the process dies midway,
   * what is left (likes, comments, pictures) is unreachable, never a note with missing parts, and
   * the journal entry has the repair remove it; each step is idempotent.
   */
  async delete(req: NoteRequest): Promise<Record<string, never>> {
    const viewer = viewerOf(req.caller);
    await this.notes.exclusive(req.id, async () => {
      const current = await this.access.owned(req.id, viewer);
      await this.repair.journal.run([noteTarget(current._id)], async () => {
        await this.notes.delete(current._id);
        await this.likes.deleteForNote(current._id);
        await this.comments.deleteForNote(current._id);
        await this.pictures.delete(keysOf(current.photos));
      }, keysOf(current.photos));
    });
    return {};
  }

  async listCreated(req: ListUserNotesRequest): Promise<NoteList> {
    const viewer = viewerOf(req.caller);
    await this.access.requireUser(req.userId);
    const privacies = await this.access.visiblePrivacies(req.userId, viewer);
    const { total, notes } = await this.notes.listByAuthor(req.userId, privacies, req.page.start, req.page.count);
    return envelope('notes', req.page.start, total, withinPageBudget(await this.views.notes(notes, req.format)));
  }

  /**
   * Stores a change of a note (inside `exclusive`), setting who may see its pictures in an
   * order that never shows a picture to someone the note hides it from.
   */
  private async save(current: StoredNote, changes: NoteChanges, added: NotePhoto[]): Promise<StoredNote> {
    const privacy = changes.privacy ?? current.privacy;
    const open = privacy === 'public';
    const privacyChanged = privacy !== current.privacy;
    // several documents and pictures change only with new pictures or a new privacy: then under a journal entry
    const keys = privacyChanged ? [...keysOf(added), ...keysOf(current.photos)] : keysOf(added);
    await this.withPictures(current._id, keys, async () => {
      // new pictures first: nobody knows their addresses yet
      await this.pictures.setVisibility(keysOf(added), open);
      // narrowing hides the old pictures before the note changes, widening opens them after
      if (privacyChanged && !open) await this.pictures.setVisibility(keysOf(current.photos), false);
      await this.notes.update(current, changes);
      if (privacyChanged && open) await this.pictures.setVisibility(keysOf(current.photos), true);
      if (privacyChanged) await this.likes.setNotePrivacy(current._id, privacy);
    }, privacyChanged);
    return { ...current, ...changes };
  }

  /** Runs a write that accepts pictures or changes the likes' copies under a journal entry (NoteRepair settles them after a crash). */
  private async withPictures(noteId: string, keys: string[], work: () => Promise<void>, always = false): Promise<void> {
    if (keys.length === 0 && !always) return work();
    await this.repair.journal.run([noteTarget(noteId)], work, keys);
  }
}

/**
 * The stored form of a note's content, refused (before anything is stored) where that form breaks
 * a rule the text as sent kept:
 * - written out, links and pictures (with their captions) make it longer than what was sent; it is
 *   what a client reads back as `text` and may PUT again unchanged, so it keeps the same limit;
 * - a link's text is stored with its entities decoded and inner tags dropped, so `sp&#97;m` in an
 *   anchor reads as a banned word only now.
 */
function storedContent(raw: string, pictureText: (n: number) => PictureText | undefined): string {
  const content = normalizeNoteContent(raw, pictureText);
  if (content.length > MAX_NOTE_CONTENT_LENGTH) {
    throw new ApiError('invalid_args', `content is over ${MAX_NOTE_CONTENT_LENGTH} characters once its links and pictures are written out`);
  }
  if (BannedWords.foundIn(content) !== undefined) throw new ApiError('has_ban_word');
  return content;
}

/** A title is one line of text; one of control characters only counts as none (400/1012). */
function cleanTitle(title: string): string {
  const cleaned = cleanText(title).replace(/\s*\n\s*/g, ' ').trim();
  if (cleaned === '') throw new ApiError('title_missing');
  return cleaned;
}
