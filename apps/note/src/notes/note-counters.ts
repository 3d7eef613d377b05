import { Injectable } from '@nestjs/common';
import { DatabaseEngine } from '@plaza/service-kit';
import { CommentsRepository } from '../comments/comments.repository';
import { LikesRepository } from '../likes/likes.repository';
import { NoteLocalEngine } from './local-engine';
import { NoteCounters, NotesRepository, StoredNote } from './notes.repository';

export type CounterField = keyof Required<NoteCounters>;
export const COUNTER_FIELDS: CounterField[] = ['liked_count', 'comments_count'];

/**
 * The change of a counter's source (inserting or deleting a like or a comment), run under the
 * note's lock with the note as it is then; resolves with how much it moved the counter (+1, -1,
 * or 0 when it changed nothing), or throws to refuse (nothing written).
 */
export type SourceChange = (note: StoredNote) => Promise<number>;

export interface CounterResult {
  /** The note after the counter was written, or null when it is gone (the change did not run). */
  note: StoredNote | null;
  /** What the change answered. */
  moved: number;
}

interface Pending {
  field: CounterField;
  /** A source change, or nothing for a plain recount. */
  change?: SourceChange;
  resolve: (result: CounterResult) => void;
  reject: (err: unknown) => void;
}

/** Compare-and-swap attempts when another instance recounts the same note at the same moment (MongoDB branch only). */
const MAX_ATTEMPTS = 20;

/**
 * Keeps liked_count and comments_count equal to their sources (note_likes, note_comments).
 *
 * A like, a comment or their removal is a source change that runs under the note's lock
 * (NotesRepository.exclusive), followed by the counter's move under the same lock. Changes that
 * arrive while the lock is busy wait together and go in one batch: their source writes one after
 * the other, then one move of the counter (group commit: 200 concurrent likes cost a handful of
 * counter writes). The move differs by branch (DatabaseEngine):
 * - MongoDB: the counter is counted again from its source by the indexed `note_id` and written
 *   with `$set`, a compare-and-swap on `counts_v`, so any number of instances stay exact;
 * - local (FerretDB, one instance: its lease): the counters are held in memory, not stored
 *   (NoteLocalEngine), and move by the batch's sum. Every source change of the note runs under
 *   this lock, so the sum is exact; they are counted again from the sources at every start.
 * `recount` counts from the sources on both branches: under the lock it is right whenever it
 * runs, which is what repairs (NoteRepair: a write that died between its source and its counter,
 * an import) and `npm run reconcile` use.
 */
@Injectable()
export class NoteCounterWriter {
  private readonly waiting = new Map<string, Pending[]>();

  constructor(
    private readonly notes: NotesRepository,
    private readonly likes: LikesRepository,
    private readonly comments: CommentsRepository,
    private readonly engine: DatabaseEngine,
    private readonly local: NoteLocalEngine,
  ) {}

  /** Runs `change` under the note's lock and writes the counter after it. */
  change(id: string, field: CounterField, change: SourceChange): Promise<CounterResult> {
    return this.enqueue(id, { field, change });
  }

  /** Counts `fields` again from their sources and writes them; the note after, or null when it is gone. */
  async recount(id: string, fields: CounterField[]): Promise<StoredNote | null> {
    const results = await Promise.all(fields.map((field) => this.enqueue(id, { field })));
    return results[results.length - 1]?.note ?? null;
  }

  private enqueue(id: string, request: Pick<Pending, 'field' | 'change'>): Promise<CounterResult> {
    return new Promise<CounterResult>((resolve, reject) => {
      const pending: Pending = { ...request, resolve, reject };
      const batch = this.waiting.get(id);
      if (batch) return void batch.push(pending);
      const fresh: Pending[] = [pending];
      this.waiting.set(id, fresh);
      void this.notes.exclusive(id, async () => {
        // from here on, new requests form the next batch, queued behind this one
        this.waiting.delete(id);
        await this.write(id, fresh).catch((err: unknown) => fresh.forEach((p) => p.reject(err)));
      });
    });
  }

  private async write(id: string, batch: Pending[]): Promise<void> {
    const note = await this.notes.byId(id);
    if (!note) return batch.forEach((p) => p.resolve({ note: null, moved: 0 }));
    // the source changes, one after the other; one that fails is refused alone
    const moved = new Map<Pending, number>();
    for (const p of batch) {
      if (!p.change) continue;
      try {
        moved.set(p, await p.change(note));
      } catch (err) {
        p.reject(err);
      }
    }
    const live = batch.filter((p) => !p.change || moved.has(p));
    const recounted = new Set(live.filter((p) => !p.change).map((p) => p.field));
    const sums: NoteCounters = {};
    for (const [p, d] of moved) sums[p.field] = (sums[p.field] ?? 0) + d;
    const after = await this.engine.run('note.notes.counters', {
      mongodb: () => this.recountAndSwap(note, COUNTER_FIELDS.filter((f) => recounted.has(f) || sums[f] !== undefined)),
      local: async () => {
        // held in memory (NoteLocalEngine), the note's `byId` above waited for their count
        if (recounted.size > 0) this.local.setCounters(id, await this.count(id, [...recounted]));
        this.local.moveCounters(id, Object.fromEntries(COUNTER_FIELDS.filter((f) => !recounted.has(f)).map((f) => [f, sums[f] ?? 0])));
        return this.local.withCounters(note);
      },
    });
    for (const p of live) p.resolve({ note: after, moved: moved.get(p) ?? 0 });
  }

  /** Counts `fields` from their sources and writes them, a compare-and-swap retried when another instance wrote first. */
  private async recountAndSwap(current: StoredNote, fields: CounterField[]): Promise<StoredNote | null> {
    let note: StoredNote | null = current;
    for (let attempt = 0; attempt < MAX_ATTEMPTS && note; attempt++) {
      if (fields.length === 0) return note;
      const counts = await this.count(note._id, fields);
      if (fields.every((f) => (note as StoredNote)[f] === counts[f])) return note;
      const stored = await this.notes.setCounters(note, counts);
      if (stored) return stored;
      note = await this.notes.byId(current._id);
    }
    if (!note) return null;
    throw new Error(`the counters of note ${current._id} kept changing under a recount`);
  }

  private async count(id: string, fields: CounterField[]): Promise<NoteCounters> {
    const [likes, comments] = await Promise.all([
      fields.includes('liked_count') ? this.likes.countForNote(id) : undefined,
      fields.includes('comments_count') ? this.comments.countForNote(id) : undefined,
    ]);
    const counts: NoteCounters = {};
    if (likes !== undefined) counts.liked_count = likes;
    if (comments !== undefined) counts.comments_count = comments;
    return counts;
  }
}
