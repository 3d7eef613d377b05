import { Inject, Injectable, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { InjectConnection } from '@nestjs/mongoose';
import { Drift, ReconcileResponse } from '@plaza/contracts';
import { LOGGER, Logger, ReadinessRegistry } from '@plaza/platform';
import type { Connection } from 'mongoose';
import { CommentsRepository } from '../comments/comments.repository';
import { LikesRepository } from '../likes/likes.repository';
import { COUNTER_FIELDS, NoteCounterWriter } from '../notes/note-counters';
import { NotesRepository, StoredNote } from '../notes/notes.repository';
import { NotePictures } from '../pictures/note-pictures';
import { confirmDrifts, DatabaseEngine, NO_SWEEP, reconcileReport, RepairJournal, repairDrifts, scheduleSweeps, splitTarget, SweepResult } from '@plaza/service-kit';

/** How often the journal is swept while the service runs (it is swept at start too). */
const SWEEP_INTERVAL_MS = 60_000;

export const noteTarget = (noteId: string) => `note:${noteId}`;

/**
 * Crash consistency of the note area. Every write that changes more than one document (a like
 * and liked_count, a comment and comments_count, a note and its likes' privacy copies, pictures,
 * likes and comments) runs under an entry of the `note_repairs` journal; `repair` re-derives all
 * that hangs on one note from the note and its sources, so an entry left by a process that died
 * midway is completed by the sweep at start (the service is not ready before it ran) and every
 * minute. `reconcile` compares every note with its sources (npm run reconcile; docs/RELIABILITY.md,
 * "Crash consistency").
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
    private readonly engine: DatabaseEngine,
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

  /**
   * Runs a like's or a comment's write and its note's counter after it (NoteCounterWriter): under
   * a journal entry on MongoDB, where a process that dies between the two leaves the note to be
   * recounted by the sweep; as it is on the local engine, whose counters are held in memory and
   * counted again from their sources at every start (NoteLocalEngine), so no crash leaves them off.
   */
  counterWrite<T>(noteId: string, work: () => Promise<T>): Promise<T> {
    return this.engine.run('note.counters.journal', {
      mongodb: () => this.journal.run([noteTarget(noteId)], work),
      local: work,
    });
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

  /**
   * `note.v1.reconcile.run`: every note's counters and its likes' privacy copies against their
   * sources, and leftovers of deleted notes. A bulk pass finds the suspects; each is confirmed on
   * its own (confirmDrifts) before it counts as drift, is repaired and goes to the metric.
   */
  async reconcile(repair: boolean): Promise<ReconcileResponse> {
    const started = Date.now();
    // a dry run changes nothing: not even the journal's repairs (their targets count as busy)
    const journal = repair ? await this.sweep() : NO_SWEEP;
    const open = await this.journal.openTargets();
    // the sources first: a note created after them has none of its likes or comments in them
    const [likes, comments] = await Promise.all([this.likes.summaryByNote(), this.comments.countsByNote()]);
    const checked = { notes: 0, note_likes: 0, note_comments: 0 };
    for (const byPrivacy of likes.values()) for (const n of byPrivacy.values()) checked.note_likes += n;
    for (const n of comments.values()) checked.note_comments += n;
    const suspects = new Set<string>();
    const seen = new Set<string>();
    let busy = 0;
    for await (const note of await this.notes.allCounters()) {
      checked.notes++;
      seen.add(note._id);
      if (open.has(noteTarget(note._id))) {
        busy++;
        continue;
      }
      const byPrivacy = [...(likes.get(note._id) ?? [])];
      const sources = {
        likes: byPrivacy.reduce((a, [, n]) => a + n, 0),
        otherPrivacy: byPrivacy.filter(([privacy]) => privacy !== note.privacy).reduce((a, [, n]) => a + n, 0),
        comments: comments.get(note._id) ?? 0,
      };
      if (noteDrifts(note._id, note, sources).length > 0) suspects.add(note._id);
    }
    // likes and comments of a note that is gone: a delete that died before removing them
    for (const noteId of [...likes.keys(), ...comments.keys()]) if (!seen.has(noteId) && !open.has(noteTarget(noteId))) suspects.add(noteId);
    const confirmed = await confirmDrifts(suspects, {
      target: noteTarget,
      exclusive: (id, task) => this.notes.exclusive(id, task),
      differences: (id) => this.differences(id),
      openTargets: () => this.journal.openTargets(),
    });
    const repaired = repair ? await repairDrifts(confirmed.drifts, (id) => this.repair(noteTarget(id), [], true)) : 0;
    return reconcileReport('note', { checked, drifts: confirmed.drifts, repaired, busy: busy + confirmed.busy, journal, started }, this.logger);
  }

  /** One note (or its leftovers, when it is gone) against its sources counted now; under its lock. */
  private async differences(id: string): Promise<Drift[]> {
    const note = await this.notes.byId(id);
    const [likes, otherPrivacy, comments] = await Promise.all([
      this.likes.countForNote(id),
      note ? this.likes.countWithOtherPrivacy(id, note.privacy) : 0,
      this.comments.countForNote(id),
    ]);
    return noteDrifts(id, note, { likes, otherPrivacy, comments });
  }
}

/** How a note (null: gone) differs from its sources: its likes, those whose privacy copy is not the note's, its comments. */
function noteDrifts(
  id: string, note: Pick<StoredNote, 'liked_count' | 'comments_count' | 'privacy'> | null, sources: { likes: number; otherPrivacy: number; comments: number },
): Drift[] {
  const drifts: Drift[] = [];
  if (!note) {
    if (sources.likes > 0) drifts.push({ kind: 'note_like.orphan', id, stored: sources.likes, source: 0 });
    if (sources.comments > 0) drifts.push({ kind: 'note_comment.orphan', id, stored: sources.comments, source: 0 });
    return drifts;
  }
  if ((note.liked_count ?? 0) !== sources.likes) drifts.push({ kind: 'note.liked_count', id, stored: note.liked_count ?? 0, source: sources.likes });
  if ((note.comments_count ?? 0) !== sources.comments) drifts.push({ kind: 'note.comments_count', id, stored: note.comments_count ?? 0, source: sources.comments });
  if (sources.otherPrivacy > 0) drifts.push({ kind: 'note_like.note_privacy', id, stored: `${sources.otherPrivacy} likes with another privacy`, source: note.privacy });
  return drifts;
}
