import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { NotePrivacy } from '@plaza/contracts';
import { KeyedMutex } from '@plaza/platform';
import { DatabaseEngine, driverCollection, GroupedWrites } from '@plaza/service-kit';
import { Model, mongo } from 'mongoose';
import { NoteLocalEngine } from './local-engine';
import { NoteDocument } from './note.schema';

export type StoredNote = NoteDocument;
export type NoteCounters = Partial<Pick<NoteDocument, 'liked_count' | 'comments_count'>>;
/** What reconciliation compares of each note with its sources. */
export type NoteCountersRow = Pick<NoteDocument, '_id' | 'liked_count' | 'comments_count' | 'privacy'>;

/**
 * The notes collection. Every change of a note document runs inside `exclusive(id, ...)`: on
 * FerretDB v1 an update is read, change, write back without isolation, so two unserialised
 * writes of one note (a like and an edit, say) could lose one another (docs/DEVELOPING.md).
 *
 * A user's notes come from the `{author_id, privacy, publish_time, _id}` index on MongoDB, and on
 * the local engine from NoteLocalEngine's notes held by author, kept current here after every
 * write: this repository is the collection's only writer (docs/ENGINES.md).
 */
@Injectable()
export class NotesRepository {
  private readonly lock = new KeyedMutex();
  /** New notes' inserts, sent together on the local engine when they come at once (grouped-writes.ts). */
  private readonly inserts: GroupedWrites<NoteDocument>;

  constructor(
    @InjectModel(NoteDocument.name) private readonly notes: Model<NoteDocument>,
    private readonly engine: DatabaseEngine,
    private readonly local: NoteLocalEngine,
  ) {
    this.inserts = new GroupedWrites(engine, driverCollection(notes));
  }

  /** Runs a read-modify-write of one note alone. Not re-entrant: never nest two for one id. */
  exclusive<T>(id: string, task: () => Promise<T>): Promise<T> {
    return this.lock.run(id, task);
  }

  /**
   * One note by `_id`: the database on MongoDB; on the local engine the notes held in memory (the
   * database until they have loaded), with the counters held there (NoteLocalEngine).
   */
  async byId(id: string): Promise<StoredNote | null> {
    return this.engine.run('note.notes.by-id', {
      mongodb: () => this.storedById(id),
      local: async () => {
        await this.local.countersReady();
        const held = this.local.note(id);
        const note = held === undefined ? await this.storedById(id) : held;
        return note && this.local.withCounters(note);
      },
    });
  }

  /** The note as the database has it (what a failed write reads back); by the driver, as the counter writes: every like and comment makes them. */
  private storedById(id: string): Promise<StoredNote | null> {
    return driverCollection(this.notes).findOne({ _id: id });
  }

  /**
   * A new note, built whole by the service (every field, its pictures' defaults included): by the
   * driver, as the counter writes, since mongoose's document for it (casting, defaults,
   * validation, its save bookkeeping) cost more than the insert's round trip.
   */
  async insert(note: StoredNote): Promise<void> {
    await this.tracked(note._id, () => this.inserts.insertOne(note), () => note);
  }

  /** Sets fields (never the counters) of `current`, the note as read under `exclusive`. */
  async update(current: StoredNote, changes: Partial<Omit<StoredNote, '_id' | 'liked_count' | 'comments_count' | 'counts_v'>>): Promise<void> {
    await this.tracked(current._id, () => this.engine.write(() => this.notes.updateOne({ _id: current._id }, { $set: changes }).exec()), (r) => (r.matchedCount === 1 ? { ...current, ...changes } : null));
  }

  /**
   * Sets the counters to values counted from their sources (NoteCounterWriter's MongoDB branch,
   * inside `exclusive`), only if `counts_v` is still the one read (a missing one is `null`), so a
   * recount by another instance that was computed later is never overwritten. Returns the note as
   * stored, or null when it changed or is gone. The local engine stores no counters (NoteLocalEngine).
   */
  async setCounters(current: StoredNote, counts: NoteCounters): Promise<StoredNote | null> {
    const version = current.counts_v ?? 0;
    // `counts_v: null` matches a note that has none yet (the driver types it as a number only)
    const filter: mongo.Filter<NoteDocument> = { _id: current._id, counts_v: (current.counts_v ?? null) as number };
    const result = await this.engine.write(() => driverCollection(this.notes).updateOne(filter, { $set: { ...counts, counts_v: version + 1 } }));
    return result.matchedCount === 1 ? { ...current, ...counts, counts_v: version + 1 } : null;
  }

  /** Every note's counters and privacy (reconciliation): from the database, or on the local engine as held there with its counters. */
  async allCounters(): Promise<AsyncIterable<NoteCountersRow>> {
    return this.engine.run<AsyncIterable<NoteCountersRow>>('note.notes.all-counters', {
      mongodb: () => this.notes.find({}, { liked_count: 1, comments_count: 1, privacy: 1 }).lean<NoteCountersRow[]>().cursor(),
      local: () => this.local.allNotes(),
    });
  }

  /** Inside `exclusive`. False when there was no such note. */
  async delete(id: string): Promise<boolean> {
    const result = await this.tracked(id, () => this.engine.write(() => this.notes.deleteOne({ _id: id }).exec()), () => null);
    return result.deletedCount > 0;
  }

  /** A user's notes of the given privacies, newest first. */
  async listByAuthor(authorId: string, privacies: NotePrivacy[], start: number, count: number): Promise<{ total: number; notes: StoredNote[] }> {
    return this.engine.run('note.notes.by-author', {
      mongodb: () => this.listFromDatabase(authorId, privacies, start, count),
      local: () => this.local.listByAuthor(authorId, privacies, start, count),
    });
  }

  /**
   * Runs a write of note `id` (one that takes its own place in the database's write queue), then,
   * on the local engine, brings the note held by author up to date: `after` gives it as stored
   * (null: gone; undefined: not known, read back). A write that failed is read back too: it may
   * have landed before the error.
   */
  private async tracked<T>(id: string, write: () => Promise<T>, after: (result: T) => StoredNote | null | undefined): Promise<T> {
    let result: T;
    try {
      result = await write();
    } catch (err) {
      await this.upkeep(id, undefined).catch(() => undefined);
      throw err;
    }
    await this.upkeep(id, after(result));
    return result;
  }

  private upkeep(id: string, note: StoredNote | null | undefined): Promise<void> {
    return this.engine.run('note.notes.upkeep', {
      mongodb: () => undefined,
      local: async () => {
        const stored = note === undefined ? await this.storedById(id) : note;
        if (stored) this.local.noteWritten(stored);
        else this.local.noteRemoved(id);
      },
    });
  }

  /** The page by skip/limit and its count, both on the `{author_id, privacy, publish_time, _id}` index (indexes.spec.ts). */
  private async listFromDatabase(authorId: string, privacies: NotePrivacy[], start: number, count: number): Promise<{ total: number; notes: StoredNote[] }> {
    const filter = { author_id: authorId, privacy: { $in: privacies } };
    const [total, notes] = await Promise.all([
      this.notes.countDocuments(filter).exec(),
      count === 0 ? [] : this.notes.find(filter).sort({ publish_time: -1, _id: -1 }).skip(start).limit(count).lean<StoredNote[]>().exec(),
    ]);
    return { total, notes };
  }
}
