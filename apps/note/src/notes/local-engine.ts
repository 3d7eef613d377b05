import { Injectable, OnApplicationBootstrap, Optional } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { NotePrivacy } from '@plaza/contracts';
import { ReadinessRegistry } from '@plaza/platform';
import { DatabaseEngine } from '@plaza/service-kit';
import { Model } from 'mongoose';
import { CommentsRepository } from '../comments/comments.repository';
import { LikesRepository } from '../likes/likes.repository';
import { NoteDocument } from './note.schema';
import { NotesByAuthor } from './notes-by-author';

/** A note's counters: how many likes and comments it has. */
export type HeldCounters = Pick<NoteDocument, 'liked_count' | 'comments_count'>;

const NO_COUNTERS: HeldCounters = { liked_count: 0, comments_count: 0 };

/**
 * Everything the note service does differently on the local engine (docs/ENGINES.md lists each
 * difference with its tests): FerretDB v1 answers a filter other than `_id` by decoding every
 * document of the collection, so a user's notes are answered from the notes held here by author,
 * loaded once (in the background at start) and kept current by NotesRepository after each of its
 * writes; a read of one note by id is answered from them too. Exact because on the local engine the service runs as one instance (its lease) and that
 * repository is the collection's only writer.
 *
 * Each note's liked_count and comments_count are held here too, and not stored with the note:
 * counted from the likes and comments when the service starts, then moved by each like's and
 * comment's write (NoteCounterWriter, under the note's lock). On MongoDB a like is two writes,
 * the like and the note's counter; here it is the like alone, and no repair-journal entry guards
 * the pair, since a crash between them cannot leave a counter off: the next start counts again
 * from the sources (docs/PERFORMANCE.md, "Writes").
 */
@Injectable()
export class NoteLocalEngine implements OnApplicationBootstrap {
  private readonly byAuthor = new NotesByAuthor();
  /** Each note's counters (absent: none), once counted (`countersReady`). */
  private readonly counters = new Map<string, HeldCounters>();
  private counting?: Promise<void>;
  private counted = false;

  constructor(
    @InjectModel(NoteDocument.name) private readonly notes: Model<NoteDocument>,
    private readonly likes: LikesRepository,
    private readonly comments: CommentsRepository,
    private readonly engine: DatabaseEngine,
    @Optional() private readonly readiness?: ReadinessRegistry,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.byAuthor.preload(this.engine, () => this.all());
    // not ready before the counters are counted on the local engine (requests meanwhile wait for
    // the count); a probe after a failed count starts it again, so readiness never sticks on it
    this.readiness?.register({ name: 'note-counters', check: async () => this.counted || !(await this.engine.isLocal()) || this.startCounting() });
    if (await this.engine.isLocal().catch(() => false)) this.startCounting();
  }

  /** Starts the count in the background (not ready yet: false). */
  private startCounting(): false {
    void this.countersReady().catch(() => undefined);
    return false;
  }

  /**
   * Counts every note's likes and comments, once; a failed count is tried again by the next call.
   * Everything that shows or moves a counter waits for it (NotesRepository, NoteCounterWriter), so
   * no like lands between the count and the first move.
   */
  countersReady(): Promise<void> {
    this.counting ??= this.countAll().catch((err: unknown) => {
      this.counting = undefined;
      throw err;
    });
    return this.counting;
  }

  /** The note with its counters as held here (`countersReady` must have resolved). */
  withCounters<T extends Pick<NoteDocument, '_id'>>(note: T): T & HeldCounters {
    const { liked_count, comments_count } = this.counters.get(note._id) ?? NO_COUNTERS;
    return { ...note, liked_count, comments_count };
  }

  /** Moves a note's counters by a batch of likes' or comments' writes (under the note's lock). */
  moveCounters(id: string, by: Partial<HeldCounters>): void {
    const held = this.counters.get(id) ?? NO_COUNTERS;
    this.counters.set(id, { liked_count: held.liked_count + (by.liked_count ?? 0), comments_count: held.comments_count + (by.comments_count ?? 0) });
  }

  /** Sets counters counted from their sources (a recount, under the note's lock). */
  setCounters(id: string, counted: Partial<HeldCounters>): void {
    this.counters.set(id, { ...(this.counters.get(id) ?? NO_COUNTERS), ...counted });
  }

  /** A user's notes of the given privacies, newest first (the MongoDB branch's order), with their counters. */
  async listByAuthor(authorId: string, privacies: NotePrivacy[], start: number, count: number): Promise<{ total: number; notes: NoteDocument[] }> {
    await Promise.all([this.byAuthor.ready(() => this.all()), this.countersReady()]);
    const { total, notes } = this.byAuthor.page(authorId, privacies, start, count);
    return { total, notes: notes.map((note) => this.withCounters(note)) };
  }

  /** The note held under `id`, null when there is none; undefined until every note has loaded (the caller reads the database). */
  note(id: string): NoteDocument | null | undefined {
    if (!this.byAuthor.loaded) return undefined;
    return this.byAuthor.note(id) ?? null;
  }

  /** Every note held, with its counters (reconciliation). */
  async *allNotes(): AsyncIterable<NoteDocument> {
    await Promise.all([this.byAuthor.ready(() => this.all()), this.countersReady()]);
    for (const note of this.byAuthor.all()) yield this.withCounters(note);
  }

  noteWritten(note: NoteDocument): void {
    this.byAuthor.put(note);
  }

  noteRemoved(id: string): void {
    this.byAuthor.remove(id);
    this.counters.delete(id);
  }

  private async countAll(): Promise<void> {
    const [likes, comments] = await Promise.all([this.likes.summaryByNote(), this.comments.countsByNote()]);
    this.counters.clear();
    for (const id of new Set([...likes.keys(), ...comments.keys()])) {
      const liked = [...(likes.get(id)?.values() ?? [])].reduce((sum, n) => sum + n, 0);
      this.counters.set(id, { liked_count: liked, comments_count: comments.get(id) ?? 0 });
    }
    this.counted = true;
  }

  private async *all(): AsyncIterable<NoteDocument> {
    yield* this.notes.find({}).lean<NoteDocument[]>().cursor();
  }
}
