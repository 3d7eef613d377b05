import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { EventCategory } from '@plaza/contracts';
import { DatabaseEngine, SEARCH_RESULT_LIMIT } from '@plaza/service-kit';
import { indexTerms } from '@plaza/search';
import { FilterQuery, Model } from 'mongoose';
import { EventSearchDocument } from './event-search.schema';
import { TimeWindow } from './event-windows';

/** How much of an event's `content` is searched: its opening, so a 50 000-character description does not store tens of thousands of terms. */
export const SEARCHED_CONTENT_LENGTH = 1000;

/** The search entry of an event: terms of its title, address and the opening of its content (libs/search, as book search). */
export function eventSearchEntry(event: {
  _id: string; title: string; content?: string; address?: string; is_priv: boolean; begin: Date; end: Date; loc_id: string; category: EventCategory;
}): EventSearchDocument {
  return {
    _id: event._id,
    search_terms: indexTerms(event.title, event.address, [...(event.content ?? '')].slice(0, SEARCHED_CONTENT_LENGTH).join('')),
    is_priv: event.is_priv,
    begin: event.begin,
    end: event.end,
    loc_id: event.loc_id,
    category: event.category,
  };
}

export interface EventSearchFilter {
  /** queryTerms of `q`: every one must match. */
  terms: string[];
  window: TimeWindow;
  now: Date;
  locId?: string;
  category?: EventCategory;
}

const isDuplicateKey = (err: unknown) => (err as { code?: number })?.code === 11000;

/**
 * The `event_search` collection. A search is bounded on both branches: at most the first
 * SEARCH_RESULT_LIMIT matches are reachable and counted (docs/ENGINES.md, "Search at scale").
 */
@Injectable()
export class EventSearchRepository {
  constructor(
    @InjectModel(EventSearchDocument.name) private readonly model: Model<EventSearchDocument>,
    private readonly engine: DatabaseEngine,
  ) {}

  /** Writes an event's entry (called under the event's lock, after the event). Insert first: an upsert of a missing `_id` scans on FerretDB v1. */
  async put(entry: EventSearchDocument): Promise<void> {
    try {
      await this.model.collection.insertOne(entry as never);
    } catch (err) {
      if (!isDuplicateKey(err)) throw err;
      await this.model.collection.replaceOne({ _id: entry._id } as never, entry as never);
    }
  }

  /** How many entries there are (metadata, no scan). */
  count(): Promise<number> {
    return this.model.estimatedDocumentCount().exec();
  }

  /** Ids of entries, for finding events stored before search existed. */
  async allIds(): Promise<Set<string>> {
    const docs = await this.model.find({}, { _id: 1 }).lean<Array<{ _id: string }>>().exec();
    return new Set(docs.map((d) => d._id));
  }

  /**
   * Public events matching every term that overlap the window and have not ended, soonest
   * beginning first (then by id, as the city list): the page's ids, and the matches up to the bound.
   */
  async page(filter: EventSearchFilter, start: number, count: number): Promise<{ total: number; ids: string[] }> {
    if (filter.terms.length === 0) return { total: 0, ids: [] };
    const endsAfter = filter.window.from.getTime() > filter.now.getTime() ? filter.window.from : filter.now;
    const query: FilterQuery<EventSearchDocument> = { search_terms: { $all: filter.terms }, is_priv: false, end: { $gt: endsAfter } };
    if (filter.window.to) query.begin = { $lt: filter.window.to };
    if (filter.locId !== undefined) query.loc_id = filter.locId;
    if (filter.category !== undefined) query.category = filter.category;
    const sort = { begin: 1, _id: 1 } as const;
    const end = Math.min(start + count, SEARCH_RESULT_LIMIT);
    return this.engine.run('event.search', {
      // the page with skip/limit and a count that stops at the bound, each a walk of the `search_terms` index
      mongodb: async () => {
        const [total, docs] = await Promise.all([
          this.model.countDocuments(query).limit(SEARCH_RESULT_LIMIT).exec(),
          start < end ? this.model.find(query, { _id: 1 }).sort(sort).skip(start).limit(end - start).lean<Array<{ _id: string }>>().exec() : [],
        ]);
        return { total, ids: docs.map((d) => d._id) };
      },
      // FerretDB scans the collection for any filter beyond `_id`: one scan gives the page and the count, not two
      local: async () => {
        const docs = await this.model.find(query, { _id: 1 }).sort(sort).limit(SEARCH_RESULT_LIMIT).lean<Array<{ _id: string }>>().exec();
        return { total: docs.length, ids: docs.slice(start, end).map((d) => d._id) };
      },
    });
  }
}
