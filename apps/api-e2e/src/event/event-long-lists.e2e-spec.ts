import { get } from '../support/http';
import { readCutList } from '../support/paging';
import { importRecords } from '../support/import';

/**
 * Lists of long events (an imported `content` may hold 50 000 characters): a page is cut to what
 * one NATS message carries, `count` says how many came, and paging on from start + count loses
 * none (DECISIONS.md "A list page is cut to what one NATS message carries").
 */
/** A city of its own (fixtures/event.ndjson), whose lists no other spec reads. */
const CITY = '128888';
const OWNER = { id: '79101', uid: 'event_long_owner' };

describe('a list of long events', () => {
  it('is cut short to fit one message and pages on without losing an event', async () => {
    const content = '春'.repeat(50_000); // 150 KB of JSON each: forty pass the page's 4 MiB
    const ids = Array.from({ length: 40 }, (_, i) => String(79200 + i));
    const run = importRecords([
      { kind: 'user', id: OWNER.id, uid: OWNER.uid, name: 'Long events', created: '2023-03-01 09:00:00', password: 'correct horse battery staple' },
      ...ids.map((id, i) => ({
        kind: 'event', id, title: `Long event ${i}`, category: 'music', content,
        begin_time: '2030-05-01 10:00:00', end_time: '2030-05-01 12:00:00', loc_id: CITY, owner: { id: OWNER.id },
      })),
    ]);
    expect(run.status).toBe(0);

    const { first, ids: seen } = await readCutList(`/v2/event/user_created/${OWNER.id}`, 'events', ids.length);
    expect(first.body.events[0].content).toBe(content);
    expect([...seen].sort()).toEqual([...ids].sort());

    // the city's list is cut the same way
    const inCity = await get('/v2/event/list', { query: { loc: CITY, count: 100 } });
    expect(inCity.status).toBe(200);
    expect(inCity.body.total).toBe(ids.length);
    expect(inCity.body.count).toBe(inCity.body.events.length);
    expect(inCity.body.count).toBeLessThan(ids.length);
  }, 120_000);
});
