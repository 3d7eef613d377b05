import { captureQueries, DatabaseEngine, SEARCH_RESULT_LIMIT, unboundedQueries, unindexedQueries } from '@plaza/service-kit';
import mongoose from 'mongoose';
import { ParticipantsRepository } from '../participation/participants.repository';
import { ParticipantDocument, ParticipantSchema, WisherDocument, WisherSchema } from '../participation/participation.schemas';
import { WishersRepository } from '../participation/wishers.repository';
import { EventDocument, EventSchema } from './event.schema';
import { EventSearchDocument, EventSearchSchema } from './event-search.schema';
import { EventSearchRepository } from './event-search.repository';
import { EventsRepository } from './events.repository';
import { USER_LIST_REACH } from './events.service';
import { EventLocalEngine } from './local-engine';

/**
 * Every list query of the event service has an index on MongoDB (FerretDB ignores secondary
 * indexes). The city list is left out: about fifty documents, read in `order` by its own index.
 */
const db = new mongoose.Mongoose();
const mongodb = DatabaseEngine.fixed('mongodb');
const models = {
  events: db.model(EventDocument.name, EventSchema),
  participants: db.model(ParticipantDocument.name, ParticipantSchema),
  wishers: db.model(WisherDocument.name, WisherSchema),
};
const local = new EventLocalEngine(models.events as never, models.participants as never, models.wishers as never, mongodb);
const participants = new ParticipantsRepository(models.participants as never, mongodb, local);
const wishers = new WishersRepository(models.wishers as never, mongodb, local);
const searchEntries = new EventSearchRepository(db.model(EventSearchDocument.name, EventSearchSchema) as never, mongodb);
const events = new EventsRepository(models.events as never, participants, wishers, mongodb, local);

describe('event queries use indexes on MongoDB', () => {
  const now = new Date('2026-11-24T10:00:00Z');
  it("a city's events in every kind of window, with and without a type; a user's own events", async () => {
    const queries = await captureQueries(async () => {
      await events.inLoc('108288', { from: now }, now);
      await events.inLoc('108288', { from: now, to: new Date('2026-11-25T00:00:00Z') }, now, 'music');
      await events.byOwner('100001', USER_LIST_REACH);
    });
    expect(queries).toHaveLength(3);
    expect(unindexedQueries(queries)).toEqual([]);
    // the city list is bounded by its city (above); a user's own events by the lists' reach
    expect(unboundedQueries(queries.slice(2))).toEqual([]);
    expect(queries[2].limit).toBe(USER_LIST_REACH);
  });

  it("an event's participants and wishers, a user's participations and wishes: indexed and bounded", async () => {
    const queries = await captureQueries(async () => {
      await participants.page('500001', 0, 20);
      await wishers.page('500001', 0, 20);
      await participants.eventIdsOf('100001', USER_LIST_REACH);
      await wishers.eventIdsOf('100001', USER_LIST_REACH);
      // the recounts after each join, leave, wish and unwish (EventsRepository.recount)
      await participants.countForEvent('500001');
      await wishers.countForEvent('500001');
    });
    expect(queries).toHaveLength(8);
    expect(unindexedQueries(queries)).toEqual([]);
    expect(unboundedQueries(queries)).toEqual([]);
    expect(queries.filter((q) => q.op === 'find').map((q) => q.limit)).toEqual([20, 20, USER_LIST_REACH, USER_LIST_REACH]);
  });

  it('the events a page shows and the private ones a list checks: one `$in` query each, with its limit; one id as an equality', async () => {
    const queries = await captureQueries(async () => {
      await events.byIds(['500001', '500002', '500003']);
      await events.summaries(['500001', '500002']);
      await events.byId('500001');
      await participants.linkedAmong(['500001', '500002'], '100001');
      await participants.has('500001', '100001');
    });
    expect(queries.map((q) => q.filter)).toEqual([
      { _id: { $in: ['500001', '500002', '500003'] } },
      { _id: { $in: ['500001', '500002'] } },
      { _id: '500001' },
      { _id: { $in: ['500001:100001', '500002:100001'] } },
      { _id: '500001:100001' },
    ]);
    expect(queries.map((q) => q.limit)).toEqual([3, 2, 1, 2, 1]);
    expect(unindexedQueries(queries)).toEqual([]);
    expect(unboundedQueries(queries)).toEqual([]);
  });

  it('event search, with and without a city, a type and a closed window: indexed, bounded, counted up to the bound', async () => {
    const terms = ['春', '音乐'];
    const queries = await captureQueries(async () => {
      await searchEntries.page({ terms, window: { from: now }, now }, 0, 20);
      await searchEntries.page({ terms, window: { from: now, to: new Date('2026-11-25T00:00:00Z') }, now, locId: '108288', category: 'music' }, 980, 100);
    });
    expect(queries.map((q) => q.op).sort()).toEqual(['countDocuments', 'countDocuments', 'find', 'find']);
    expect(unindexedQueries(queries)).toEqual([]);
    expect(unboundedQueries(queries)).toEqual([]);
    for (const q of queries) expect(q.limit).toBeLessThanOrEqual(SEARCH_RESULT_LIMIT);
    // the second page stops at the bound: 20 ids from 980
    expect(queries.filter((q) => q.op === 'find').map((q) => q.limit)).toEqual([20, 20]);
  });

  it('a search past the bound reads no page, and a query without terms reads nothing', async () => {
    const queries = await captureQueries(async () => {
      await searchEntries.page({ terms: ['x'], window: { from: now }, now }, SEARCH_RESULT_LIMIT, 20);
      await searchEntries.page({ terms: [], window: { from: now }, now }, 0, 20);
    });
    expect(queries.map((q) => q.op)).toEqual(['countDocuments']);
  });
});
