import { EventUserLink } from '../participation/event-user-links';
import { EventDocument } from './event.schema';
import { HeldEvents, HeldLinks, latestBeginningFirst } from './local-engine';

async function* from<T>(docs: T[]): AsyncIterable<T> {
  yield* docs;
}

const link = (event: string, user: string, at: number): EventUserLink => ({ _id: `${event}:${user}`, event_id: event, user_id: user, created: new Date(at) });
const ids = (links: readonly { _id: string }[]) => links.map((l) => l._id);

describe('HeldLinks', () => {
  it("gives an event's links and a user's links the latest first, ties by _id as the database sorts them", async () => {
    const held = new HeldLinks();
    await held.ready(() => from([link('1', 'a', 10), link('1', 'b', 30), link('2', 'a', 20), link('1', 'c', 30)]));
    expect(ids(held.ofEvent('1'))).toEqual(['1:b', '1:c', '1:a']);
    expect(ids(held.ofUser('a'))).toEqual(['2:a', '1:a']);
    expect(ids(held.ofEvent('3'))).toEqual([]);
    expect([held.has('1:a'), held.has('3:a')]).toEqual([true, false]);
  });

  it('follows every write: a join goes first, a leave is gone from both groups, a re-join is the latest again', async () => {
    const held = new HeldLinks();
    await held.ready(() => from([link('1', 'a', 10), link('1', 'b', 20)]));
    held.put(link('1', 'c', 30));
    expect(ids(held.ofEvent('1'))).toEqual(['1:c', '1:b', '1:a']);
    held.remove('1:a');
    expect(ids(held.ofEvent('1'))).toEqual(['1:c', '1:b']);
    expect(ids(held.ofUser('a'))).toEqual([]);
    held.put(link('1', 'a', 40));
    expect(ids(held.ofEvent('1'))).toEqual(['1:a', '1:c', '1:b']);
    expect(ids(held.ofUser('a'))).toEqual(['1:a']);
    held.remove('9:z');
    expect(held.ofEvent('1')).toHaveLength(3);
  });

  it('keeps a write that lands during the load over what the load read', async () => {
    const held = new HeldLinks();
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const loading = held.ready(async function* () {
      await gate;
      yield link('1', 'a', 10);
      yield link('1', 'b', 20);
    });
    held.remove('1:a');
    held.put(link('1', 'b', 50));
    release();
    await loading;
    expect(ids(held.ofEvent('1'))).toEqual(['1:b']);
    expect(held.ofEvent('1')[0].created.getTime()).toBe(50);
  });
});

describe('HeldEvents', () => {
  const event = (id: string, owner: string, begin: string) => ({ _id: id, owner_id: owner, begin: new Date(begin) }) as EventDocument;

  it('holds each event by id and by owner, and moves it when its owner changes', async () => {
    const held = new HeldEvents();
    await held.ready(() => from([event('1', 'u', '2030-01-01'), event('2', 'u', '2030-02-01'), event('3', 'v', '2030-01-01')]));
    expect(ids(held.ownedBy('u').sort(latestBeginningFirst))).toEqual(['2', '1']);
    held.put(event('1', 'v', '2030-03-01'));
    expect(ids(held.ownedBy('u'))).toEqual(['2']);
    expect(ids(held.ownedBy('v').sort(latestBeginningFirst))).toEqual(['1', '3']);
    expect(held.get('1')?.owner_id).toBe('v');
  });

  it('orders a list by latest beginning, ties by the larger id', () => {
    const list = [event('9', 'u', '2030-01-01'), event('10', 'u', '2030-01-01'), event('5', 'u', '2031-01-01')];
    expect(ids(list.sort(latestBeginningFirst))).toEqual(['5', '9', '10']);
  });
});
