import { DatabaseEngine } from '@plaza/service-kit';
import { EventLocalEngine } from '../events/local-engine';
import { EventUserLink } from './event-user-links';
import { ParticipantDocument } from './participation.schemas';
import { ParticipantsRepository } from './participants.repository';

/** A stand-in for the participants collection: inserts by `_id` (a duplicate is E11000), deletes, reads by `_id`, a full read. */
function fakeCollection() {
  const docs = new Map<string, EventUserLink>();
  let failNext: Error | undefined;
  let readsFail = false;
  const counts: string[] = [];
  const fail = () => {
    const err = failNext;
    failNext = undefined;
    if (err) throw err;
  };
  const query = <T>(run: () => T) => {
    const q = { select: () => q, lean: () => q, limit: () => q, sort: () => q, exec: async () => run(), cursor: async function* () { yield* run() as unknown as EventUserLink[]; } };
    return q;
  };
  const model = {
    collection: {
      insertOne: async (doc: EventUserLink) => {
        if (docs.has(doc._id)) throw Object.assign(new Error('E11000'), { code: 11000 });
        docs.set(doc._id, doc);
        fail();
      },
      insertMany: async (links: EventUserLink[]) => {
        const writeErrors: Array<{ index: number; code: number }> = [];
        links.forEach((l, index) => (docs.has(l._id) ? writeErrors.push({ index, code: 11000 }) : docs.set(l._id, l)));
        fail();
        if (writeErrors.length > 0) throw Object.assign(new Error('E11000'), { writeErrors });
      },
    },
    deleteOne: (filter: { _id: string }) => query(() => ({ deletedCount: docs.delete(filter._id) ? 1 : 0 })),
    findById: (id: string) => query(() => {
      if (readsFail) throw new Error('database away');
      return docs.get(id) ?? null;
    }),
    countDocuments: (filter: { event_id: string }) => query(() => {
      counts.push(filter.event_id);
      return [...docs.values()].filter((d) => d.event_id === filter.event_id).length;
    }),
    find: () => query(() => [...docs.values()]),
  };
  return { model, docs, counts, failNextWith: (err: Error) => (failNext = err), readsFailing: (on: boolean) => (readsFail = on) };
}

function setup() {
  const store = fakeCollection();
  const engine = DatabaseEngine.fixed('local');
  const local = new EventLocalEngine({} as never, store.model as never, {} as never, engine);
  const repo = new ParticipantsRepository(store.model as never, engine, local);
  const link = (event: string, user: string, at: number) => ({ _id: `${event}:${user}`, event_id: event, user_id: user, created: new Date(at) }) as ParticipantDocument;
  return { ...store, local, repo, link };
}

describe('EventUserLinksRepository on the local engine', () => {
  it('answers pages and user lists from the held links, kept current by join, leave, import and re-join', async () => {
    const { repo, link } = setup();
    await repo.add(link('1', 'a', 10));
    expect(await repo.page('1', 0, 20)).toEqual({ total: 1, userIds: ['a'] });
    expect(await repo.add(link('1', 'b', 20))).toBe(true);
    expect(await repo.add(link('1', 'b', 25))).toBe(false);
    expect(await repo.addMany([link('1', 'c', 30), link('1', 'a', 31), link('2', 'a', 32)])).toEqual(['added', 'existing', 'added']);
    expect(await repo.page('1', 0, 20)).toEqual({ total: 3, userIds: ['c', 'b', 'a'] });
    expect(await repo.page('1', 1, 1)).toEqual({ total: 3, userIds: ['b'] });
    expect(await repo.page('1', 0, 0)).toEqual({ total: 3, userIds: [] });
    expect(await repo.eventIdsOf('a', 10)).toEqual(['2', '1']);
    expect(await repo.eventIdsOf('a', 1)).toEqual(['2']);

    expect(await repo.remove('1', 'b')).toBe(true);
    expect(await repo.remove('1', 'b')).toBe(false);
    expect(await repo.page('1', 0, 20)).toEqual({ total: 2, userIds: ['c', 'a'] });
    expect(await repo.add(link('1', 'b', 40))).toBe(true);
    expect(await repo.page('1', 0, 20)).toEqual({ total: 3, userIds: ['b', 'c', 'a'] });
    expect([...(await repo.linkedAmong(['1', '2', '3'], 'a'))]).toEqual(['1', '2']);
    expect([await repo.has('2', 'a'), await repo.has('2', 'b')]).toEqual([true, false]);
  });

  it('loads what was stored before it started, and reads a link by `_id` until then', async () => {
    const { repo, docs, local, link } = setup();
    docs.set('1:a', link('1', 'a', 10));
    expect(local.heldLinks('participants').loaded).toBe(false);
    expect(await repo.has('1', 'a')).toBe(true);
    expect(await repo.page('1', 0, 20)).toEqual({ total: 1, userIds: ['a'] });
    expect(local.heldLinks('participants').loaded).toBe(true);
  });

  it('reads a link again when a write failed mid-way, so the lists follow what the database holds', async () => {
    const { repo, link, failNextWith } = setup();
    await repo.page('1', 0, 20);
    failNextWith(new Error('connection reset'));
    // the insert reached the database, the answer did not
    await expect(repo.add(link('1', 'a', 10))).rejects.toThrow('connection reset');
    expect(await repo.page('1', 0, 20)).toEqual({ total: 1, userIds: ['a'] });
    failNextWith(new Error('connection reset'));
    await expect(repo.addMany([link('1', 'b', 20), link('1', 'c', 30)])).rejects.toThrow('connection reset');
    expect(await repo.page('1', 0, 20)).toEqual({ total: 3, userIds: ['c', 'b', 'a'] });
  });

  it("counts an event's links from the held ones, and from the database for an event whose failed write could not be read back", async () => {
    const { repo, link, docs, counts, failNextWith, readsFailing } = setup();
    await repo.page('1', 0, 20); // the held links have loaded
    await repo.addMany([link('1', 'a', 10), link('1', 'b', 20), link('2', 'a', 30)]);
    docs.set('3:z', link('3', 'z', 5)); // written behind the repository's back: not held, so not counted
    expect([await repo.countForEvent('1'), await repo.countForEvent('2'), await repo.countForEvent('3')]).toEqual([2, 1, 0]);
    expect(counts).toEqual([]);
    // the insert reached the database, its answer did not, and the database is away for the read-back
    readsFailing(true);
    failNextWith(new Error('connection reset'));
    await expect(repo.add(link('1', 'c', 40))).rejects.toThrow('connection reset');
    // a batch whose read-back finds the database away: every event of it is unsure
    failNextWith(new Error('connection reset'));
    await expect(repo.addMany([link('4', 'a', 50), link('5', 'a', 60)])).rejects.toThrow('connection reset');
    readsFailing(false);
    expect([await repo.countForEvent('4'), await repo.countForEvent('5')]).toEqual([1, 1]);
    expect(counts).toEqual(['4', '5']);
    counts.length = 0;
    expect(await repo.countForEvent('1')).toBe(3);
    expect(counts).toEqual(['1']);
    expect(await repo.countForEvent('2')).toBe(1);
    expect(counts).toEqual(['1']);
    // reconcile's confirmation reads the collection itself
    expect(await repo.storedCountForEvent('3')).toBe(1);
  });
});
