import { FilterQuery, Model } from 'mongoose';

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
 */
export abstract class EventUserLinksRepository<T extends EventUserLink> {
  protected constructor(protected readonly model: Model<T>) {}

  async find(eventId: string, userId: string): Promise<T | null> {
    return this.model.findById(linkId(eventId, userId)).lean<T>().exec();
  }

  async has(eventId: string, userId: string): Promise<boolean> {
    return (await this.find(eventId, userId)) !== null;
  }

  /** True when the link is new, false when it was already there. */
  async add(link: T): Promise<boolean> {
    try {
      await this.model.collection.insertOne(link as never);
      return true;
    } catch (err) {
      if (isDuplicateKey(err)) return false;
      throw err;
    }
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
      if (writeErrors === undefined) throw err;
      for (const w of Array.isArray(writeErrors) ? writeErrors : [writeErrors]) {
        outcome[w.index] = isDuplicateKey(w) ? 'existing' : { error: w.errmsg ?? `error ${w.code}` };
      }
    }
    return outcome;
  }

  /** True when a link was removed, false when there was none (or a concurrent remove took it). */
  async remove(eventId: string, userId: string): Promise<boolean> {
    const { deletedCount } = await this.model.deleteOne({ _id: linkId(eventId, userId) } as FilterQuery<T>).exec();
    return deletedCount === 1;
  }

  /** The source of the event's counter (the `event_id` index on MongoDB). */
  async countForEvent(eventId: string): Promise<number> {
    return this.model.countDocuments({ event_id: eventId } as FilterQuery<T>).exec();
  }

  /** For reconciliation: how many links each event has (one pass over the collection). */
  async countsByEvent(): Promise<Map<string, number>> {
    const rows = await this.model.aggregate<{ _id: string; n: number }>([{ $group: { _id: '$event_id', n: { $sum: 1 } } }]).exec();
    return new Map(rows.map((r) => [r._id, r.n]));
  }

  /** The users of an event, the latest first. */
  async page(eventId: string, start: number, count: number): Promise<{ total: number; userIds: string[] }> {
    const filter = { event_id: eventId } as FilterQuery<T>;
    const [total, links] = await Promise.all([
      this.model.countDocuments(filter).exec(),
      count === 0
        ? Promise.resolve([] as EventUserLink[])
        : this.model.find(filter).sort({ created: -1, _id: 1 }).skip(start).limit(count).select({ user_id: 1 }).lean<EventUserLink[]>().exec(),
    ]);
    return { total, userIds: links.map((l) => l.user_id) };
  }

  /** Every event the user is linked to. */
  async eventIdsOf(userId: string): Promise<string[]> {
    const links = await this.model.find({ user_id: userId } as FilterQuery<T>).select({ event_id: 1 }).lean<EventUserLink[]>().exec();
    return links.map((l) => l.event_id);
  }
}
