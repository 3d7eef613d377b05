import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { EventCategory } from '@plaza/contracts';
import { KeyedMutex } from '@plaza/platform';
import { FilterQuery, Model } from 'mongoose';
import { EventDocument } from './event.schema';
import { TimeWindow } from './event-windows';

export type StoredEvent = EventDocument;
export type EventCounter = 'participant_count' | 'wisher_count';
export type EventCounters = Pick<StoredEvent, EventCounter>;
/** What an import sets; the counters belong to the participation records. */
export type EventFields = Omit<StoredEvent, EventCounter>;

const OPTIONAL_FIELDS = ['alt', 'adapt_url', 'image', 'image_hlarge', 'image_lmobile'] as const;

/** Counter changes of one event waiting for the next write, and who waits for it. */
interface PendingCounts {
  deltas: Record<EventCounter, number>;
  waiters: Array<{ resolve: (counts: EventCounters) => void; reject: (err: unknown) => void }>;
}

/**
 * The events collection. Every write of one event document (an import, a counter change) runs
 * under that event's lock: FerretDB v1 applies an update as read, change, write back, so two at
 * once lose one (see KeyedMutex). `$inc` keeps it right on MongoDB with several instances.
 *
 * Counter changes are group-committed: while one write of an event's counters runs, the changes
 * that arrive meanwhile are summed and written together by the next one. 200 joins at once then
 * cost a few writes instead of 200 queued ones, and each caller still learns the counts that
 * include its own change.
 */
@Injectable()
export class EventsRepository {
  private readonly lock = new KeyedMutex();
  private readonly pending = new Map<string, PendingCounts>();
  private readonly reading = new Map<string, Promise<StoredEvent | null>>();

  constructor(@InjectModel(EventDocument.name) private readonly events: Model<EventDocument>) {}

  async byId(id: string): Promise<StoredEvent | null> {
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

  /** Several events by id, in the order given, missing ones left out (parallel `_id` reads: `$in` scans on FerretDB). */
  async byIds(ids: string[]): Promise<StoredEvent[]> {
    const found = await Promise.all([...new Set(ids)].map((id) => this.byId(id)));
    return found.filter((e): e is StoredEvent => e !== null);
  }

  /** Events of a city that overlap the window and have not ended, soonest first. */
  async inLoc(locId: string, window: TimeWindow, now: Date, category?: EventCategory): Promise<StoredEvent[]> {
    const endsAfter = window.from.getTime() > now.getTime() ? window.from : now;
    const filter: FilterQuery<EventDocument> = { loc_id: locId, end: { $gt: endsAfter } };
    if (window.to) filter.begin = { $lt: window.to };
    if (category) filter.category = category;
    return this.events.find(filter).sort({ begin: 1, _id: 1 }).lean<StoredEvent[]>().exec();
  }

  /** A user's own events, latest beginning first. */
  async byOwner(ownerId: string): Promise<StoredEvent[]> {
    return this.events.find({ owner_id: ownerId }).sort({ begin: -1, _id: -1 }).lean<StoredEvent[]>().exec();
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
    });
  }

  /** Adds `delta` to a counter; resolves with both counters as stored after the write that carried it. */
  addToCount(id: string, counter: EventCounter, delta: number): Promise<EventCounters> {
    let batch = this.pending.get(id);
    if (!batch) {
      batch = { deltas: { participant_count: 0, wisher_count: 0 }, waiters: [] };
      this.pending.set(id, batch);
      void this.flush(id);
    }
    batch.deltas[counter] += delta;
    const waiters = batch.waiters;
    return new Promise((resolve, reject) => waiters.push({ resolve, reject }));
  }

  private async flush(id: string): Promise<void> {
    await this.lock.run(id, async () => {
      // whatever arrived while waiting for the lock goes in this write; later changes start a new batch
      const batch = this.pending.get(id);
      if (!batch) return;
      this.pending.delete(id);
      try {
        const inc = Object.fromEntries(Object.entries(batch.deltas).filter(([, d]) => d !== 0));
        // no projection: FerretDB v1's findAndModify does not implement `fields`
        const doc = Object.keys(inc).length > 0
          ? await this.events.findOneAndUpdate({ _id: id }, { $inc: inc }, { new: true }).lean<EventCounters>().exec()
          : await this.events.findById(id).lean<EventCounters>().exec();
        if (!doc) throw new Error(`event ${id} vanished while its counters changed`);
        const counts = { participant_count: doc.participant_count, wisher_count: doc.wisher_count };
        for (const w of batch.waiters) w.resolve(counts);
      } catch (err) {
        for (const w of batch.waiters) w.reject(err);
      }
    });
  }
}
