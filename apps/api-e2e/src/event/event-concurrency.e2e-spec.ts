import { reconcileMessage } from '@plaza/contracts';
import { ServiceBus } from '@plaza/platform';
import { connect } from 'nats';
import { tokenFor } from '../support/auth';
import { crowd, CROWD_SIZE } from '../support/fixtures';
import { del, get, post } from '../support/http';
import { natsOptionsAs } from '../support/stack-info';
import { Events } from './event-fixtures';

/**
 * Counters must stay exact when many users write at once: FerretDB v1 loses concurrent `$inc`s,
 * so the service keeps one document per participation and moves the counter under a per-event
 * lock. 60006 is touched by this spec only.
 */
describe('concurrent participation and interest', () => {
  const id = Events.marathon;
  let tokens: string[];

  beforeAll(async () => {
    tokens = [];
    // password grants a few at a time: this is about the event service, not the token endpoint
    for (let i = 0; i < CROWD_SIZE; i += 20) {
      tokens.push(...(await Promise.all(Array.from({ length: 20 }, (_, j) => tokenFor(crowd(i + j + 1))))));
    }
  }, 180_000);

  const everyone = (send: (token: string) => Promise<{ status: number }>) => Promise.all(tokens.map(send));

  it('counts 200 users joining at once as 200, and 200 marking interest at once as 200', async () => {
    const joins = await everyone((token) => post(`/v2/event/${id}/participants`, { token }));
    const wishes = await everyone((token) => post(`/v2/event/${id}/wishers`, { token }));
    expect([...joins, ...wishes].map((r) => r.status)).toEqual(Array(2 * CROWD_SIZE).fill(202));
    const { body } = await get(`/v2/event/${id}`);
    expect({ participants: body.participant_count, wishers: body.wisher_count }).toEqual({ participants: CROWD_SIZE, wishers: CROWD_SIZE });
    expect((await get(`/v2/event/${id}/participants`, { query: { count: 0 } })).body.total).toBe(CROWD_SIZE);
    expect((await get(`/v2/event/${id}/wishers`, { query: { count: 0 } })).body.total).toBe(CROWD_SIZE);
  }, 120_000);

  it("agrees with the service's reconciliation, which counts every event's links again (npm run reconcile)", async () => {
    const nc = await connect({ ...natsOptionsAs('reconcile'), name: 'event-concurrency-test' });
    try {
      const r = await new ServiceBus(nc, 60_000).request(reconcileMessage('event'), { repair: false });
      expect(r.checked.event_participants).toBeGreaterThanOrEqual(CROWD_SIZE);
      expect(r.checked.event_wishers).toBeGreaterThanOrEqual(CROWD_SIZE);
      expect(r.samples.filter((d) => d.id === id)).toEqual([]);
    } finally {
      await nc.close();
    }
  }, 60_000);

  it('changes nothing when the same 200 join again at once', async () => {
    const results = await everyone((token) => post(`/v2/event/${id}/participants`, { token }));
    expect(results.every((r) => r.status === 202)).toBe(true);
    expect((await get(`/v2/event/${id}`)).body.participant_count).toBe(CROWD_SIZE);
  }, 120_000);

  it('counts down to 0 when they all leave at once, and all lose interest at once', async () => {
    const leaves = await everyone((token) => del(`/v2/event/${id}/participants`, { token }));
    const unwishes = await everyone((token) => del(`/v2/event/${id}/wishers`, { token }));
    expect([...leaves, ...unwishes].every((r) => r.status === 202)).toBe(true);
    const { body } = await get(`/v2/event/${id}`);
    expect({ participants: body.participant_count, wishers: body.wisher_count }).toEqual({ participants: 0, wishers: 0 });
    expect((await get(`/v2/event/${id}/participants`)).body).toEqual({ start: 0, count: 0, total: 0, users: [] });
  }, 120_000);

  it('changes nothing when the same 200 leave again at once', async () => {
    const results = await everyone((token) => del(`/v2/event/${id}/participants`, { token }));
    expect(results.every((r) => r.status === 202)).toBe(true);
    expect((await get(`/v2/event/${id}`)).body.participant_count).toBe(0);
  }, 120_000);
});
