import { Inject, Injectable } from '@nestjs/common';
import { idsToReserve, ImportBatch, ImportBatchResult, importedPicture, MAX_NOTE_CAPTION_LENGTH, MAX_NOTE_CONTENT_LENGTH, NotePictureLayout, NotePictureLayouts, PictureFormat, UserRecord } from '@plaza/contracts';
import { APP_CONFIG, CacheInvalidator, Clock, CLOCK, ImportKindHandler, importedUser, importTime, runImportBatch, UsersDirectory } from '@plaza/platform';
import { Sequences } from '@plaza/service-kit';
import { CommentsRepository } from '../comments/comments.repository';
import { NoteConfig } from '../config/note.config';
import { LikesRepository } from '../likes/likes.repository';
import { cleanText, normalizeNoteContent } from '../markup/note-markup';
import { safeLinkAddress } from '../markup/safe-url';
import { DEFAULT_LAYOUT, MAX_PICTURES_PER_NOTE, pictureTexts } from '../notes/note-pictures.merge';
import { NotePhoto } from '../notes/note.schema';
import { NotePictures } from '../pictures/note-pictures';
import { NotesRepository, StoredNote } from '../notes/notes.repository';
import { NoteRepair, noteTarget } from '../recovery/note-repair';
import { NoteCommentImportRecord, NoteImportRecord, NoteLikeImportRecord, RECORD_ID } from './note-import.records';

const AUTHORED_KINDS = new Set(['note', 'note_comment']);

function userRef(record: Record<string, unknown>): string | undefined {
  if (typeof record.author_id === 'string') return record.author_id;
  if (typeof record.user_id === 'string') return record.user_id;
  const author = record.author as { id?: unknown; uid?: unknown } | undefined;
  if (author && typeof author === 'object') return typeof author.id === 'string' ? author.id : typeof author.uid === 'string' ? author.uid : undefined;
  return undefined;
}

const FORMAT_BY_EXTENSION: Record<string, PictureFormat> = { jpg: 'jpeg', jpeg: 'jpeg', png: 'png', gif: 'gif', bmp: 'bmp' };

/**
 * The note kinds of an import (docs/api/note.md, "Import"): notes, comments and likes upserted by
 * their ids (likes by note and user), each checked against the notes and users it names.
 *
 * Counters follow the sources as the service's own writes do: the batch runs under one entry of
 * the repair journal naming every note it may touch, and ends with NoteRepair's repair of each of
 * them (liked_count and comments_count counted from the likes and comments, the likes' privacy
 * copies from the note), so a batch imported twice, or cut short by a crash and completed by the
 * sweep, leaves exact counts. Id sequences are moved past the file's ids before the batch
 * writes, so notes and comments written through the API never take one.
 */
@Injectable()
export class NoteImporter {
  constructor(
    @Inject(APP_CONFIG) private readonly config: NoteConfig,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly notes: NotesRepository,
    private readonly comments: CommentsRepository,
    private readonly likes: LikesRepository,
    private readonly repair: NoteRepair,
    private readonly sequences: Sequences,
    private readonly users: UsersDirectory,
    private readonly cache: CacheInvalidator,
    private readonly pictures: NotePictures,
  ) {}

  async importBatch(batch: ImportBatch): Promise<ImportBatchResult> {
    const users = await this.resolveUsers(batch);
    const targets = new Set<string>();
    for (const { kind, record } of batch.lines) {
      const noteId = kind === 'note' ? record.id : record.note_id;
      if (typeof noteId === 'string' && RECORD_ID.test(noteId)) targets.add(noteTarget(noteId));
    }
    const touched = new Set<string>();
    const handlers: Record<string, ImportKindHandler<object>> = {
      note: { record: NoteImportRecord, upsert: (r) => this.note(r as NoteImportRecord, users, touched) },
      note_comment: { record: NoteCommentImportRecord, upsert: (r) => this.comment(r as NoteCommentImportRecord, users, touched) },
      note_like: { record: NoteLikeImportRecord, upsert: (r) => this.like(r as NoteLikeImportRecord, users, touched) },
    };
    // ids first, the file's and the batch's: a note or comment written through the API from now
    // on, even between two batches of one file, never takes an id the file will write
    const reserve = idsToReserve(batch);
    if (reserve.note) await this.sequences.atLeast('note', reserve.note);
    if (reserve.note_comment) await this.sequences.atLeast('note_comment', reserve.note_comment);
    const result = await this.repair.journal.run([...targets], async () => {
      const lines = await runImportBatch(batch, handlers);
      // counters and privacy copies from their sources: right however often the batch runs
      for (const noteId of touched) await this.repair.repair(noteTarget(noteId), [], true);
      return lines;
    });
    if (result.results.some((r) => r.ok)) this.cache.areas('note');
    return result;
  }

  private async note(r: NoteImportRecord, users: Map<string, UserRecord>, touched: Set<string>): Promise<void> {
    const author = this.user(users, userRef(r as never), 'author');
    const photos = this.photos(r.photos);
    const content = normalizeNoteContent(r.content, pictureTexts(photos));
    if (content.length > MAX_NOTE_CONTENT_LENGTH) throw new Error(`content is over ${MAX_NOTE_CONTENT_LENGTH} characters once its links and pictures are written out`);
    const title = cleanText(r.title).replace(/\s*\n\s*/g, ' ').trim();
    const publish = this.time(r.publish_time, 'publish_time');
    const fields = {
      author_id: author.id,
      title,
      content,
      privacy: r.privacy ?? 'public',
      can_reply: r.can_reply ?? true,
      photos,
      publish_time: publish,
      update_time: r.update_time === undefined ? publish : this.time(r.update_time, 'update_time'),
    } satisfies Omit<StoredNote, '_id' | 'liked_count' | 'comments_count' | 'counts_v'>;
    await this.notes.exclusive(r.id, async () => {
      // the counters are the sources', recounted after the batch; an edit keeps them
      const existing = await this.notes.byId(r.id);
      if (existing) await this.notes.update(existing, fields);
      else await this.notes.insert({ _id: r.id, ...fields, liked_count: 0, comments_count: 0 });
    });
    // an export archive's pictures, stored staged by the importer: accepted into the note, seen as its privacy allows
    const stored = photos.filter((p) => p.key !== '').map((p) => p.key);
    if (stored.length > 0) await this.pictures.setVisibility(stored, fields.privacy === 'public');
    touched.add(r.id);
  }

  private async comment(r: NoteCommentImportRecord, users: Map<string, UserRecord>, touched: Set<string>): Promise<void> {
    const author = this.user(users, userRef(r as never), 'author');
    if (!(await this.notes.byId(r.note_id))) throw new Error(`no note ${r.note_id}`);
    const comment = { _id: r.id, note_id: r.note_id, author_id: author.id, content: cleanText(r.content), created: this.time(r.created, 'created') };
    const previous = await this.comments.put(comment);
    // a comment moved to another note leaves its first note one fewer
    if (previous && previous.note_id !== r.note_id) touched.add(previous.note_id);
    touched.add(r.note_id);
  }

  private async like(r: NoteLikeImportRecord, users: Map<string, UserRecord>, touched: Set<string>): Promise<void> {
    const user = this.user(users, r.user_id, 'user');
    const created = r.created === undefined ? this.clock.now() : this.time(r.created, 'created');
    await this.notes.exclusive(r.note_id, async () => {
      // the privacy copy from the note as it is under its lock, as a like through the API takes it
      const note = await this.notes.byId(r.note_id);
      if (!note) throw new Error(`no note ${r.note_id}`);
      const like = { note_id: note._id, user_id: user.id, created, note_author_id: note.author_id, note_privacy: note.privacy };
      // an imported like without a time keeps the one it has
      if (!(await this.likes.insert(like)) && r.created !== undefined) await this.likes.setCreated(note._id, user.id, created);
    });
    touched.add(r.note_id);
  }

  /**
   * `{"1": "https://…"}` → pictures shown at those addresses; a value may also be
   * `{"src": "https://…", "layout": "R", "desc": "caption"}`, the layout and caption that later
   * `<图片p_N>` references take (as `layout_N`/`desc_N` through the API; default `C`, no caption).
   */
  private photos(input: Record<string, unknown> | undefined): NotePhoto[] {
    const entries = Object.entries(input ?? {});
    if (entries.length > MAX_PICTURES_PER_NOTE) throw new Error(`a note holds at most ${MAX_PICTURES_PER_NOTE} pictures`);
    return entries
      .map(([key, value]) => {
        const number = /^[1-9][0-9]{0,2}$/.test(key) ? Number(key) : NaN;
        if (Number.isNaN(number)) throw new Error(`photos: ${key} is not a picture number (1-999)`);
        const { src, layout, caption } = pictureText(key, value);
        // a picture of an export archive, which the importer stored under its key (docs/api/export.md)
        const archived = importedPicture(src, 'note');
        if (archived) return { number, ...archived, layout, caption } as NotePhoto;
        if (typeof src === 'string' && src.startsWith('pictures/')) throw new Error(`photos.${key}: ${src} is not among the archive's pictures`);
        const url = typeof src === 'string' ? safeLinkAddress(src) : undefined;
        if (!url) throw new Error(`photos.${key} is not an http or https address`);
        const extension = /\.([a-z]+)$/i.exec(new URL(url).pathname)?.[1]?.toLowerCase() ?? '';
        return { number, key: '', url, format: FORMAT_BY_EXTENSION[extension] ?? 'jpeg', width: 0, height: 0, size: 0, layout, caption } as NotePhoto;
      })
      .sort((a, b) => a.number - b.number);
  }

  private user(users: Map<string, UserRecord>, ref: string | undefined, role: string): UserRecord {
    return importedUser(users, ref, role);
  }

  private time(text: string, field: string): Date {
    return importTime(text, field, this.config.SERVICE_TIMEZONE);
  }

  /** Authors and likers of the batch, from identity at once (its cache dropped: users may have been imported a moment ago). */
  private async resolveUsers(batch: ImportBatch): Promise<Map<string, UserRecord>> {
    const refs = batch.lines.filter((l) => AUTHORED_KINDS.has(l.kind) || l.kind === 'note_like').map((l) => userRef(l.record)).filter((r): r is string => r !== undefined);
    if (refs.length === 0) return new Map();
    this.users.clear();
    return this.users.resolve(refs);
  }
}

/** A `photos` value: the picture (address, archive path or stored picture) and how references show it. */
function pictureText(key: string, value: unknown): { src: unknown; layout: NotePictureLayout; caption: string } {
  const isText = value !== null && typeof value === 'object' && !Array.isArray(value) && 'src' in value;
  if (!isText) return { src: value, layout: DEFAULT_LAYOUT, caption: '' };
  const { src, layout, desc } = value as { src: unknown; layout?: unknown; desc?: unknown };
  const upper = typeof layout === 'string' ? layout.toUpperCase() : layout;
  if (upper !== undefined && !(NotePictureLayouts as readonly unknown[]).includes(upper)) throw new Error(`photos.${key}.layout is not L, C or R`);
  if (desc !== undefined && (typeof desc !== 'string' || desc.length > MAX_NOTE_CAPTION_LENGTH)) throw new Error(`photos.${key}.desc is not a text of at most ${MAX_NOTE_CAPTION_LENGTH} characters`);
  return { src, layout: (upper as NotePictureLayout | undefined) ?? DEFAULT_LAYOUT, caption: desc === undefined ? '' : cleanText(desc as string) };
}
