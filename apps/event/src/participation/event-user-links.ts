import { DatabaseEngine, groupCounts } from '@plaza/service-kit';
import { FilterQuery, Model } from 'mongoose';
import { EventLocalEngine, LinkKind } from '../events/local-engine';

/** A (event, user) pair: a participation or an interest. */
export interface EventUserLink {
  _id: string;
  event_id: string;
  user_id: string;
  created: Date;
}

export const linkId = (eventId: string, userId: string) => `${eventId}:${userId}`;

const isDuplicateKey = (err: unknown) => (err as { code?: number } | null)?.code === 11000;

/** One failed document of an unordered insertMany (the driver's WriteError). */
interface WriteFailure {
  index: number;
  code?: number;
  errmsg?: string;
}

/**
 * What the participants and wishers collections share. Adding is one insert (a duplicate key
 * means "already there"), removing one delete, so both are idempotent and race-free without a lock.
 *
 * The lists (an event's users, a user's events) come from the indexes on MongoDB, and on the local
 * engine from EventLocalEngine's links held by event and by user, kept current here after every
 * write (this repository is its collection's only writer; docs/ENGINES.md).
 */
export abstract class EventUserLinksRepository<T extends EventUserLink> {
  /**
   * Events whose held links may differ from the collection: a write failed mid-way and its links
   * could not be read again. Their counts come from the database until the next start reloads.
   */
  private readonly unsure = new Set<string>();

  protected constructor(
    protected readonly model: Model<T>,
    private readonly engine: DatabaseEngine,
    private readonly local: EventLocalEngine,
    private readonly kind: LinkKind,
  ) {}

  /** The stored link (with its chosen day), read by `_id`. */
  async find(eventId: string, userId: string): Promise<T | null> {
    return this.model.findById(linkId(eventId, userId)).lean<T>().exec();
  }

  async has(eventId: string, userId: string): Promise<boolean> {
    return (await this.linkedAmong([eventId], userId)).has(eventId);
  }

  /**
   * Which of `eventIds` the user is linked to (the private events of a list). On MongoDB one `$in`
   * on `_id`; on the local engine the held links (by `_id` until they have loaded).
   */
  async linkedAmong(eventIds: string[], userId: string): Promise<Set<string>> {
    const events = [...new Set(eventIds)];
    if (events.length === 0) return new Set();
    const ids = events.map((eventId) => linkId(eventId, userId));
    const found = await this.engine.run('event.links.by-ids', {
      // one link as an equality: no scan when this branch runs on FerretDB (docs/ENGINES.md)
      mongodb: async () => (await this.model.find((ids.length === 1 ? { _id: ids[0] } : { _id: { $in: ids } }) as FilterQuery<T>)
        .limit(ids.length).select({ event_id: 1 }).lean<EventUserLink[]>().exec()).map((l) => l.event_id),
      local: async () => {
        const held = this.local.heldLinks(this.kind);
        if (held.loaded) return events.filter((_, i) => held.has(ids[i]));
        const read = await Promise.all(ids.map((id) => this.model.findById(id).select({ event_id: 1 }).lean<EventUserLink>().exec()));
        return read.filter((l): l is EventUserLink => l !== null).map((l) => l.event_id);
      },
    });
    return new Set(found);
  }

  /** True when the link is new, false when it was already there. */
  async add(link: T): Promise<boolean> {
    try {
      await this.model.collection.insertOne(link as never);
    } catch (err) {
      if (isDuplicateKey(err)) return false;
      await this.resync([link]);
      throw err;
    }
    await this.written([link], []);
    return true;
  }

  /**
   * Inserts many links in one command (an import batch: one round trip and, on FerretDB, one
   * transaction instead of one per link). Returns, for each link in order, `added`, `existing`
   * (it was there already, or earlier in the same list) or the reason it failed.
   */
  async addMany(links: T[]): Promise<Array<'added' | 'existing' | { error: string }>> {
    const outcome: Array<'added' | 'existing' | { error: string }> = links.map(() => 'added');
    if (links.length === 0) return outcome;
    try {
      await this.model.collection.insertMany(links as never[], { ordered: false });
    } catch (err) {
      const writeErrors = (err as { writeErrors?: WriteFailure | WriteFailure[] }).writeErrors;
      if (writeErrors === undefined) {
        await this.resync(links);
        throw err;
      }
      for (const w of Array.isArray(writeErrors) ? writeErrors : [writeErrors]) {
        outcome[w.index] = isDuplicateKey(w) ? 'existing' : { error: w.errmsg ?? `error ${w.code}` };
      }
    }
    await this.written(links.filter((_, i) => outcome[i] === 'added'), []);
    return outcome;
  }

  /** True when a link was removed, false when there was none (or a concurrent remove took it). */
  async remove(eventId: string, userId: string): Promise<boolean> {
    const id = linkId(eventId, userId);
    let deletedCount: number;
    try {
      ({ deletedCount } = await this.model.deleteOne({ _id: id } as FilterQuery<T>).exec());
    } catch (err) {
      await this.resync([{ _id: id, event_id: eventId }]);
      throw err;
    }
    await this.written([], [id]);
    return deletedCount === 1;
  }

  /** What follows a stored change: the held links on the local engine. */
  private written(stored: EventUserLink[], removed: string[]): Promise<void> {
    return this.engine.run('event.links.upkeep', {
      mongodb: () => undefined,
      local: () => {
        const held = this.local.heldLinks(this.kind);
        for (const link of stored) held.put(link);
        for (const id of removed) held.remove(id);
      },
    });
  }

  /**
   * After a write whose outcome is unknown (the database failed mid-way), the held links are read
   * again by `_id`, so they keep following the collection. When the database is still away their
   * events are marked unsure (`countForEvent` then asks the database) and the journal's repair
   * recounts their counters.
   */
  private async resync(links: Array<Pick<EventUserLink, '_id' | 'event_id'>>): Promise<void> {
    if (!(await this.engine.isLocal().catch(() => true))) return;
    const held = this.local.heldLinks(this.kind);
    for (const [i, link] of links.entries()) {
      try {
        const stored = await this.model.findById(link._id).lean<EventUserLink>().exec();
        if (stored) held.put(stored);
        else held.remove(link._id);
      } catch {
        // the database is still away: the rest is not tried (each would wait out its own
        // timeout), and the write's own error is what the caller learns
        for (const rest of links.slice(i)) this.unsure.add(rest.event_id);
        return;
      }
    }
  }

  /**
   * The source of the event's counter: the `event_id` index on MongoDB; on the local engine the
   * links held by event, which every write of this repository keeps (FerretDB answers a count by
   * reading the whole collection: the demo import's recounts took most of its time that way).
   */
  async countForEvent(eventId: string): Promise<number> {
    return this.engine.run('event.links.count', {
      mongodb: () => this.storedCountForEvent(eventId),
      local: async () => (this.unsure.has(eventId) ? this.storedCountForEvent(eventId) : (await this.local.linksOf(this.kind)).ofEvent(eventId).length),
    });
  }

  /** The event's links as the database counts them (reconcile's confirmation of a drift reads the collection itself). */
  async storedCountForEvent(eventId: string): Promise<number> {
    return this.model.countDocuments({ event_id: eventId } as FilterQuery<T>).exec();
  }

  /** For reconciliation: how many links each event has (one pass over the collection). */
  async countsByEvent(): Promise<Map<string, number>> {
    const rows = await groupCounts(this.engine, `event.${this.kind}.counts`, this.model, ['event_id']);
    return new Map(rows.map(({ key, n }) => [key.event_id, n]));
  }

  /** A page of an event's users, the latest first, and how many there are. */
  async page(eventId: string, start: number, count: number): Promise<{ total: number; userIds: string[] }> {
    return this.engine.run('event.links.by-event', {
      // the `{event_id, created, _id}` index: the page with skip/limit, and a count
      mongodb: async () => {
        const filter = { event_id: eventId } as FilterQuery<T>;
        const [total, links] = await Promise.all([
          this.model.countDocuments(filter).exec(),
          count === 0
            ? Promise.resolve([] as EventUserLink[])
            : this.model.find(filter).sort({ created: -1, _id: 1 }).skip(start).limit(count).select({ user_id: 1 }).lean<EventUserLink[]>().exec(),
        ]);
        return { total, userIds: links.map((l) => l.user_id) };
      },
      local: async () => {
        const links = (await this.local.linksOf(this.kind)).ofEvent(eventId);
        return { total: links.length, userIds: links.slice(start, start + count).map((l) => l.user_id) };
      },
    });
  }

  /** The events of the user's `limit` latest links, the latest first (`{user_id, created, _id}` on MongoDB). */
  async eventIdsOf(userId: string, limit: number): Promise<string[]> {
    return this.engine.run('event.links.by-user', {
      mongodb: async () => {
        const links = await this.model.find({ user_id: userId } as FilterQuery<T>).sort({ created: -1, _id: 1 }).limit(limit).select({ event_id: 1 }).lean<EventUserLink[]>().exec();
        return links.map((l) => l.event_id);
      },
      local: async () => (await this.local.linksOf(this.kind)).ofUser(userId).slice(0, limit).map((l) => l.event_id),
    });
  }
}
