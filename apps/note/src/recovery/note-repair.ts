import { Inject, Injectable, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { InjectConnection } from '@nestjs/mongoose';
import { Drift, NotePrivacy, ReconcileResponse } from '@plaza/contracts';
import { LOGGER, Logger, ReadinessRegistry, Metrics } from '@plaza/platform';
import type { Connection } from 'mongoose';
import { CommentsRepository } from '../comments/comments.repository';
import { LikesRepository } from '../likes/likes.repository';
import { COUNTER_FIELDS, NoteCounterWriter } from '../notes/note-counters';
import { NotesRepository } from '../notes/notes.repository';
import { NotePictures } from '../pictures/note-pictures';
import { RepairJournal, scheduleSweeps, splitTarget, SweepResult } from '@plaza/service-kit';

/** How often the journal is swept while the service runs (it is swept at start too). */
const SWEEP_INTERVAL_MS = 60_000;
const MAX_SAMPLES = 50;

export const noteTarget = (noteId: string) => `note:${noteId}`;

/**
 * Crash consistency of the note area. Every write that changes more than one document (a like
 * and liked_count, a comment and comments_count, a note and its likes' privacy copies, pictures,
 * likes and comments) runs under an entry of the `note_repairs` journal; `repair` re-derives all
 * that hangs on one note from the note and its sources, so an entry left by a process that died
 * midway is completed by the sweep at start (the service is not ready before it ran) and every
 * minute. `reconcile` compares every note with its sources (npm run reconcile).
 */
@Injectable()
export class NoteRepair implements OnModuleInit, OnApplicationShutdown {
  readonly journal: RepairJournal;
  private schedule?: { first: Promise<void>; stop(): void };
  private recovered = false;

  constructor(
    @InjectConnection() connection: Connection,
    private readonly notes: NotesRepository,
    private readonly likes: LikesRepository,
    private readonly comments: CommentsRepository,
    private readonly counters: NoteCounterWriter,
    private readonly pictures: NotePictures,
    private readonly readiness: ReadinessRegistry,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {
    this.journal = new RepairJournal(connection, 'note_repairs');
  }

  onModuleInit(): void {
    this.readiness.register({ name: 'recovery', check: async () => this.recovered });
    this.schedule = scheduleSweeps(() => this.sweep(), SWEEP_INTERVAL_MS, (err) => this.logger.warn({ err: err.message }, 'note repair sweep failed; will retry'));
    void this.schedule.first.then(() => (this.recovered = true));
  }

  async onApplicationShutdown(): Promise<void> {
    this.schedule?.stop();
    await this.journal.flush();
  }

  async sweep(): Promise<SweepResult> {
    const result = await this.journal.sweep((target, keys, settled) => this.repair(target, keys, settled));
    if (result.entries > 0) this.logger.info({ ...result }, 'note writes left unfinished were repaired');
    return result;
  }

  /**
   * Re-derives what hangs on one note. A note that is gone takes its likes, comments and the
   * pictures named with it; a note that is there gets its likes' privacy copies and its pictures'
   * visibility from itself (pictures it does not use are deleted: a write that stored them died),
   * and its counters recounted. Each step is idempotent. When the write may still be running
   * elsewhere (`settled` false) its pictures are left alone: it may be about to use them.
   */
  async repair(target: string, keys: string[], settled: boolean): Promise<void> {
    const [kind, id] = splitTarget(target);
    if (kind !== 'note') throw new Error(`not a note target: ${target}`);
    const note = await this.notes.byId(id);
    if (!note) {
      await this.likes.deleteForNote(id);
      await this.comments.deleteForNote(id);
      if (settled) await this.pictures.delete(keys);
      return;
    }
    // under the note's lock, as an edit changes the privacy and then the copies
    await this.notes.exclusive(id, async () => {
      const current = await this.notes.byId(id);
      if (current) await this.likes.setNotePrivacy(id, current.privacy);
    });
    if (settled && keys.length > 0) {
      const used = new Set(note.photos.map((p) => p.key));
      await this.pictures.setVisibility(keys.filter((k) => used.has(k)), note.privacy === 'public');
      await this.pictures.delete(keys.filter((k) => !used.has(k)));
    }
    await this.counters.recount(id, COUNTER_FIELDS);
  }

  /** `note.v1.reconcile.run`: every note's counters and its likes' privacy copies against their sources, and leftovers of deleted notes. */
  async reconcile(repair: boolean): Promise<ReconcileResponse> {
    const started = Date.now();
    // a dry run changes nothing: not even the journal's repairs (their targets count as busy)
    const journal = repair ? await this.sweep() : { entries: 0, repaired: 0, failed: 0, removed: 0 };
    const busy = await this.journal.openTargets();
    // the sources first: a note created after them has none of its likes or comments in them
    const [likes, comments] = await Promise.all([this.likes.summaryByNote(), this.comments.countsByNote()]);
    const checked = { notes: 0, note_likes: 0, note_comments: 0 };
    for (const byPrivacy of likes.values()) for (const n of byPrivacy.values()) checked.note_likes += n;
    for (const n of comments.values()) checked.note_comments += n;
    const drifts: Drift[] = [];
    const toRepair = new Set<string>();
    const seen = new Set<string>();
    let busyCount = 0;
    for await (const note of this.notes.allCounters()) {
      checked.notes++;
      seen.add(note._id);
      if (busy.has(noteTarget(note._id))) {
        busyCount++;
        continue;
      }
      const byPrivacy = likes.get(note._id) ?? new Map<NotePrivacy, number>();
      const liked = [...byPrivacy.values()].reduce((a, b) => a + b, 0);
      const stale = [...byPrivacy].filter(([privacy]) => privacy !== note.privacy).reduce((a, [, n]) => a + n, 0);
      const found: Drift[] = [];
      if ((note.liked_count ?? 0) !== liked) found.push({ kind: 'note.liked_count', id: note._id, stored: note.liked_count ?? 0, source: liked });
      const commented = comments.get(note._id) ?? 0;
      if ((note.comments_count ?? 0) !== commented) found.push({ kind: 'note.comments_count', id: note._id, stored: note.comments_count ?? 0, source: commented });
      if (stale > 0) found.push({ kind: 'note_like.note_privacy', id: note._id, stored: `${stale} likes with another privacy`, source: note.privacy });
      if (found.length > 0) toRepair.add(note._id);
      drifts.push(...found);
    }
    // likes and comments of a note that is gone: a delete that died before removing them
    for (const [noteId, byPrivacy] of likes) {
      if (seen.has(noteId) || busy.has(noteTarget(noteId))) continue;
      drifts.push({ kind: 'note_like.orphan', id: noteId, stored: [...byPrivacy.values()].reduce((a, b) => a + b, 0), source: 0 });
      toRepair.add(noteId);
    }
    for (const [noteId, n] of comments) {
      if (seen.has(noteId) || busy.has(noteTarget(noteId))) continue;
      drifts.push({ kind: 'note_comment.orphan', id: noteId, stored: n, source: 0 });
      toRepair.add(noteId);
    }
    let repaired = 0;
    if (repair) {
      for (const noteId of toRepair) {
        await this.repair(noteTarget(noteId), [], true);
        repaired += drifts.filter((d) => d.id === noteId).length;
      }
    }
    const response = summarize('note', checked, drifts, repaired, busyCount, journal, started);
    for (const [kind, count] of Object.entries(response.drifted)) Metrics.reconcileDrift(kind, count);
    if (drifts.length > 0) this.logger.warn({ drifted: response.drifted, repaired, samples: response.samples.slice(0, 10) }, 'reconcile: derived values differed from their sources');
    else this.logger.info({ checked, busy: busyCount }, 'reconcile: every derived value equals its source');
    return response;
  }
}

export function summarize(
  service: ReconcileResponse['service'], checked: Record<string, number>, drifts: Drift[], repaired: number, busy: number, journal: SweepResult, started: number,
): ReconcileResponse {
  const drifted: Record<string, number> = {};
  for (const d of drifts) drifted[d.kind] = (drifted[d.kind] ?? 0) + 1;
  return {
    service,
    checked,
    drifted,
    repaired,
    samples: drifts.slice(0, MAX_SAMPLES),
    busy,
    journal: { entries: journal.entries, repaired: journal.repaired, removed: journal.removed },
    ms: Date.now() - started,
  };
}
