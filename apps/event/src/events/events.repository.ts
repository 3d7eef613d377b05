import { Injectable, Optional } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { EventCategory } from '@plaza/contracts';
import { KeyedMutex } from '@plaza/platform';
import { DatabaseEngine } from '@plaza/service-kit';
import { FilterQuery, Model } from 'mongoose';
import { ParticipantsRepository } from '../participation/participants.repository';
import { WishersRepository } from '../participation/wishers.repository';
import { EventDocument } from './event.schema';
import { eventSearchEntry, EventSearchRepository } from './event-search.repository';
import { TimeWindow } from './event-windows';
import { EventLocalEngine, latestBeginningFirst } from './local-engine';

export type StoredEvent = EventDocument;
/** What a user's list sorts and filters on (status, privacy) before it reads its page's events. */
export type EventSummary = Pick<StoredEvent, '_id' | 'begin' | 'end' | 'is_priv' | 'owner_id'>;
const SUMMARY_FIELDS: Record<string, 1> = { begin: 1, end: 1, is_priv: 1, owner_id: 1 };
export type EventCounter = 'participant_count' | 'wisher_count';
export type EventCounters = Pick<StoredEvent, EventCounter>;
/** What an import sets; the counters belong to the participation records. */
export type EventFields = Omit<StoredEvent, EventCounter | 'counts_v'>;
export const EVENT_COUNTERS: EventCounter[] = ['participant_count', 'wisher_count'];

const OPTIONAL_FIELDS = ['alt', 'adapt_url', 'image', 'image_hlarge', 'image_lmobile'] as const;

interface PendingChange {
  counter: EventCounter;
  change: () => Promise<number>;
  resolve: (result: { counts: EventCounters; moved: number }) => void;
  reject: (err: unknown) => void;
}

/** Changes and recounts of one event waiting for the next write, and who waits for them. */
interface PendingCounts {
  recounts: Set<EventCounter>;
  changes: PendingChange[];
  waiters: Array<{ resolve: (counts: EventCounters) => void; reject: (err: unknown) => void }>;
}

/** Compare-and-swap attempts when another instance recounts the same event at the same moment (MongoDB only). */
const MAX_ATTEMPTS = 20;

/**
 * The events collection. Every write of one event document (an import, a counter write) runs
 * under that event's lock: FerretDB v1 applies an update as read, change, write back, so two at
 * once lose one (see KeyedMutex).
 *
 * The counters follow their sources, the participants and wishers collections. A join, a leave,
 * a wish or an unwish is a link change that runs under the event's lock (`change`), followed by
 * the counter's write under the same lock, by branch (DatabaseEngine): on MongoDB the event's
 * links are counted again (by the indexed `event_id`) and written with `$set`, a compare-and-swap
 * on `counts_v`, so any number of instances stay exact; on the local branch (one instance) `$inc`
 * by the batch's sum, exact because every link change of the event runs under this lock, and
 * no scan on the write path. `recount` counts and `$set`s on both branches, right whenever it
 * runs: a write that died between its link and its counter is repaired by it (EventRepair's
 * sweep, `npm run reconcile`).
 *
 * Counter writes are group-committed: changes that arrive while one write of an event's counters
 * runs wait together and are written by the next one. 200 joins at once then cost a few counter
 * writes instead of 200 queued ones, and each caller still learns counts that include its change.
 */
@Injectable()
export class EventsRepository {
  private readonly lock = new KeyedMutex();
  private readonly pending = new Map<string, PendingCounts>();
  private readonly reading = new Map<string, Promise<StoredEvent | null>>();

  constructor(
    @InjectModel(EventDocument.name) private readonly events: Model<EventDocument>,
    private readonly participants: ParticipantsRepository,
    private readonly wishers: WishersRepository,
    private readonly engine: DatabaseEngine,
    private readonly local: EventLocalEngine,
    /** `GET /v2/event/search`'s entries, written after each import of the event (absent in specs that only read). */
    @Optional() private readonly searchEntries?: EventSearchRepository,
  ) {}

  async byId(id: string): Promise<StoredEvent | null> {
    return (await this.byIds([id]))[0] ?? null;
  }

  /** The event as stored, read by `_id`: what a write starts from. */
  async storedById(id: string): Promise<StoredEvent | null> {
    return this.events.findById(id).lean<StoredEvent>().exec();
  }

  /**
   * `byId`, sharing one read among callers that ask for the same event at the same time (a burst
   * of joins). The answer may predate a write that finished while it was under way, so it is for
   * checks (exists, private, owner), not for showing counters.
   */
  async byIdShared(id: string): Promise<StoredEvent | null> {
    let read = this.reading.get(id);
    if (!read) {
      read = this.byId(id).finally(() => this.reading.delete(id));
      this.reading.set(id, read);
    }
    return read;
  }

  /**
   * Events by id, in the order given, missing ones left out (a page of a list or a search, a read
   * by id). On MongoDB one `$in` query on `_id`. On the local engine the events held in memory
   * (EventLocalEngine), so a page reads no document: FerretDB answers `$in` by a scan, and each
   * lookup by `_id` decodes a whole document (docs/PERFORMANCE.md, "Search and lists"). Until they
   * have loaded (at start), lookups by `_id`.
   */
  async byIds(ids: string[]): Promise<StoredEvent[]> {
    return this.read(ids);
  }

  /** `byIds` of what a list sorts and filters on (MongoDB reads only those fields). */
  async summaries(ids: string[]): Promise<EventSummary[]> {
    return this.read(ids, SUMMARY_FIELDS);
  }

  private async read(ids: string[], fields?: Record<string, 1>): Promise<StoredEvent[]> {
    const unique = [...new Set(ids)];
    if (unique.length === 0) return [];
    const docs = await this.engine.run('event.events.by-ids', {
      // one id (a read by id) as an equality: no scan when this branch runs on FerretDB (docs/ENGINES.md)
      mongodb: () => {
        const query = this.events.find(unique.length === 1 ? { _id: unique[0] } : { _id: { $in: unique } }).limit(unique.length);
        return (fields ? query.select(fields) : query).lean<StoredEvent[]>().exec();
      },
      local: async () => this.local.eventsById(unique) ?? (await Promise.all(unique.map((id) => this.storedById(id)))).filter((e): e is StoredEvent => e !== null),
    });
    const byId = new Map(docs.map((d) => [d._id, d]));
    return unique.map((id) => byId.get(id)).filter((e): e is StoredEvent => e !== undefined);
  }

  /** Events of a city that overlap the window and have not ended, soonest first. */
  async inLoc(locId: string, window: TimeWindow, now: Date, category?: EventCategory): Promise<StoredEvent[]> {
    const endsAfter = window.from.getTime() > now.getTime() ? window.from : now;
    const filter: FilterQuery<EventDocument> = { loc_id: locId, end: { $gt: endsAfter } };
    if (window.to) filter.begin = { $lt: window.to };
    if (category) filter.category = category;
    return this.events.find(filter).sort({ begin: 1, _id: 1 }).lean<StoredEvent[]>().exec();
  }

  /** The first `limit` of a user's own events, latest beginning first (`{owner_id, begin, _id}` on MongoDB). */
  async byOwner(ownerId: string, limit: number): Promise<EventSummary[]> {
    return this.engine.run('event.events.by-owner', {
      mongodb: () => this.events.find({ owner_id: ownerId }).sort({ begin: -1, _id: -1 }).limit(limit).select(SUMMARY_FIELDS).lean<EventSummary[]>().exec(),
      local: async () => (await this.local.eventsOwnedBy(ownerId)).sort(latestBeginningFirst).slice(0, limit),
    });
  }

  /** Inserts or updates an event's fields (import), keeping its counters. */
  async upsert(fields: EventFields): Promise<void> {
    const { _id, ...rest } = fields;
    const unset = Object.fromEntries(OPTIONAL_FIELDS.filter((f) => rest[f] === undefined).map((f) => [f, 1]));
    const set = Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined));
    await this.lock.run(_id, async () => {
      await this.events
        .updateOne(
          { _id },
          { $set: set, ...(Object.keys(unset).length > 0 ? { $unset: unset } : {}), $setOnInsert: { participant_count: 0, wisher_count: 0 } },
          { upsert: true },
        )
        .exec();
      await this.engine.run('event.events.upkeep', {
        mongodb: () => undefined,
        // read back under the lock: the stored event, counters included, is what the lists show
        local: async () => {
          const stored = await this.storedById(_id);
          if (stored) this.local.events.put(stored);
        },
      });
      await this.searchEntries?.put(eventSearchEntry(fields));
    });
  }

  /**
   * Writes the search entry of every event that has none (events stored before search existed):
   * once, in the background at start-up; returns how many.
   */
  async indexMissingSearchEntries(): Promise<number> {
    if (!this.searchEntries) return 0;
    // every event has its entry (entries are never removed, events never deleted): nothing to read
    if ((await this.searchEntries.count()) >= (await this.events.estimatedDocumentCount().exec())) return 0;
    const indexed = await this.searchEntries.allIds();
    let written = 0;
    const fields = { title: 1, content: 1, address: 1, is_priv: 1, begin: 1, end: 1, loc_id: 1, category: 1 };
    for await (const event of this.events.find({}, fields).lean<StoredEvent[]>().cursor()) {
      if (indexed.has(event._id)) continue;
      await this.lock.run(event._id, async () => {
        // read again under the lock: an import may have changed the event since the cursor read it
        const current = await this.storedById(event._id);
        if (current) await this.searchEntries?.put(eventSearchEntry(current));
      });
      written += 1;
    }
    return written;
  }

  /**
   * Runs `change` (a link's insert or delete: resolves with how much it moved `counter`, +1, -1
   * or 0) under the event's lock, then writes the counter; resolves with both counters as stored
   * after the write that carried it. A change that throws is refused alone.
   */
  change(id: string, counter: EventCounter, change: () => Promise<number>): Promise<{ counts: EventCounters; moved: number }> {
    return new Promise((resolve, reject) => this.batchOf(id).changes.push({ counter, change, resolve, reject }));
  }

  /** Counts `counters` again from their sources and writes them (repairs, reconciliation, an import batch); both counters after. */
  recount(id: string, counters: EventCounter[]): Promise<EventCounters> {
    const batch = this.batchOf(id);
    for (const c of counters) batch.recounts.add(c);
    return new Promise((resolve, reject) => batch.waiters.push({ resolve, reject }));
  }

  /**
   * Runs `task` under the event's lock, the one its counter writes hold from a link's change to
   * the counter's write (reconcile's check of one event). Not re-entrant: `task` must not call
   * `change`, `recount` or `upsert` for the same event.
   */
  exclusive<T>(id: string, task: () => Promise<T>): Promise<T> {
    return this.lock.run(id, task);
  }

  /** Every event's counters (reconciliation). */
  async *allCounters(): AsyncIterable<Pick<StoredEvent, '_id' | EventCounter>> {
    yield* this.events.find({}, { participant_count: 1, wisher_count: 1 }).lean<Array<Pick<StoredEvent, '_id' | EventCounter>>>().cursor();
  }

  private batchOf(id: string): PendingCounts {
    let batch = this.pending.get(id);
    if (!batch) {
      batch = { recounts: new Set(), changes: [], waiters: [] };
      this.pending.set(id, batch);
      void this.flush(id);
    }
    return batch;
  }

  private async flush(id: string): Promise<void> {
    await this.lock.run(id, async () => {
      // whatever arrived while waiting for the lock goes in this write; later ones start a new batch
      const batch = this.pending.get(id);
      if (!batch) return;
      this.pending.delete(id);
      try {
        const doc = await this.events.findById(id).lean<StoredEvent>().exec();
        if (!doc) throw new Error(`event ${id} vanished while its counters changed`);
        // the link changes, one after the other
        const moved = new Map<PendingChange, number>();
        for (const c of batch.changes) {
          try {
            moved.set(c, await c.change());
          } catch (err) {
            c.reject(err);
          }
        }
        const sums: Partial<EventCounters> = {};
        for (const [c, d] of moved) sums[c.counter] = (sums[c.counter] ?? 0) + d;
        const touched = EVENT_COUNTERS.filter((c) => batch.recounts.has(c) || sums[c] !== undefined);
        const counts = await this.engine.run('event.events.counters', {
          // a count from the source (the `event_id` index), compare-and-swap on `counts_v`: any number of instances
          mongodb: () => this.recountLocked(doc, touched, true),
          // one instance, every link change of the event under this lock: `$inc` by the sum is exact (a count scans on FerretDB)
          local: async () => {
            const recounted = await this.recountLocked(doc, EVENT_COUNTERS.filter((c) => batch.recounts.has(c)), false);
            const inc = Object.fromEntries(EVENT_COUNTERS.filter((c) => !batch.recounts.has(c) && sums[c]).map((c) => [c, sums[c] as number]));
            if (Object.keys(inc).length === 0) return recounted;
            // no projection: FerretDB v1's findAndModify does not implement `fields`
            const after = await this.events.findOneAndUpdate({ _id: id }, { $inc: { ...inc, counts_v: 1 } }, { new: true }).lean<StoredEvent>().exec();
            if (!after) throw new Error(`event ${id} vanished while its counters changed`);
            this.local.events.put(after);
            return { participant_count: after.participant_count, wisher_count: after.wisher_count };
          },
        });
        for (const [c, d] of moved) c.resolve({ counts, moved: d });
        for (const w of batch.waiters) w.resolve(counts);
      } catch (err) {
        for (const c of batch.changes) c.reject(err);
        for (const w of batch.waiters) w.reject(err);
      }
    });
  }

  /** Counts `counters` from their sources and writes them (a compare-and-swap on the MongoDB branch), retrying when another instance wrote first. */
  private async recountLocked(read: StoredEvent, counters: EventCounter[], compareAndSwap: boolean): Promise<EventCounters> {
    let doc: StoredEvent | null = read;
    for (let attempt = 0; attempt < MAX_ATTEMPTS && doc; attempt++) {
      const counts: EventCounters = { participant_count: doc.participant_count ?? 0, wisher_count: doc.wisher_count ?? 0 };
      if (counters.length === 0) return counts;
      const [participants, wishers] = await Promise.all([
        counters.includes('participant_count') ? this.participants.countForEvent(doc._id) : undefined,
        counters.includes('wisher_count') ? this.wishers.countForEvent(doc._id) : undefined,
      ]);
      if (participants !== undefined) counts.participant_count = participants;
      if (wishers !== undefined) counts.wisher_count = wishers;
      if (counts.participant_count === doc.participant_count && counts.wisher_count === doc.wisher_count) return counts;
      const version = doc.counts_v;
      const filter = compareAndSwap ? { _id: read._id, counts_v: version ?? null } : { _id: read._id };
      const result = await this.events.updateOne(filter, { $set: { ...counts, counts_v: (version ?? 0) + 1 } }).exec();
      if (result.matchedCount === 1) {
        const stored = { ...doc, ...counts, counts_v: (version ?? 0) + 1 };
        await this.engine.run('event.events.upkeep', { mongodb: () => undefined, local: () => this.local.events.put(stored) });
        return counts;
      }
      doc = await this.events.findById(read._id).lean<StoredEvent>().exec();
    }
    throw new Error(`the counters of event ${read._id} kept changing under a recount`);
  }
}
