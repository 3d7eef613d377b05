import { Injectable } from '@nestjs/common';
import { NoteCounters, NotesRepository, StoredNote } from './notes.repository';

/** Decides, with the note as it is when the counters are written, whether one change counts. */
export type Settle = (note: StoredNote) => boolean | Promise<boolean>;

export interface CounterResult {
  /** The note after the write, or null when it was deleted meanwhile (nothing counted). */
  note: StoredNote | null;
  /** False when `settle` refused the change. */
  counted: boolean;
}

interface Pending {
  delta: NoteCounters;
  settle: Settle;
  resolve: (result: CounterResult) => void;
  reject: (err: unknown) => void;
}

/**
 * Moves liked_count and comments_count exactly, with few writes. FerretDB v1 loses concurrent
 * `$inc`s, so counters change under the note's lock (NotesRepository.exclusive); and SQLite
 * writes one transaction at a time, so one write per like would queue 200 likes for seconds.
 * Changes that arrive while the note's lock is busy therefore wait together and go out as one
 * `$inc` when their turn comes (group commit): 200 concurrent likes cost a handful of writes.
 */
@Injectable()
export class NoteCounterWriter {
  private readonly waiting = new Map<string, Pending[]>();

  constructor(private readonly notes: NotesRepository) {}

  /** Adds `delta` to the note's counters, if `settle` agrees; resolves once it is written. */
  add(id: string, delta: NoteCounters, settle: Settle = () => true): Promise<CounterResult> {
    return new Promise<CounterResult>((resolve, reject) => {
      const batch = this.waiting.get(id);
      if (batch) return void batch.push({ delta, settle, resolve, reject });
      const fresh: Pending[] = [{ delta, settle, resolve, reject }];
      this.waiting.set(id, fresh);
      void this.notes.exclusive(id, async () => {
        // from here on, new changes form the next batch, queued behind this one
        this.waiting.delete(id);
        await this.write(id, fresh).catch((err: unknown) => fresh.forEach((p) => p.reject(err)));
      });
    });
  }

  private async write(id: string, batch: Pending[]): Promise<void> {
    const note = await this.notes.byId(id);
    if (!note) return batch.forEach((p) => p.resolve({ note: null, counted: false }));
    const counted: boolean[] = [];
    for (const p of batch) counted.push(await p.settle(note));
    const total = { liked_count: 0, comments_count: 0 };
    batch.forEach((p, i) => {
      if (!counted[i]) return;
      total.liked_count += p.delta.liked_count ?? 0;
      total.comments_count += p.delta.comments_count ?? 0;
    });
    if (total.liked_count !== 0 || total.comments_count !== 0) await this.notes.addToCounters(id, total);
    const after: StoredNote = {
      ...note,
      liked_count: (note.liked_count ?? 0) + total.liked_count,
      comments_count: (note.comments_count ?? 0) + total.comments_count,
    };
    batch.forEach((p, i) => p.resolve({ note: after, counted: counted[i] }));
  }
}
