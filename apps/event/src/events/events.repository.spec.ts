import { DatabaseEngine } from '@plaza/service-kit';
import { Model } from 'mongoose';
import { ParticipantsRepository } from '../participation/participants.repository';
import { WishersRepository } from '../participation/wishers.repository';
import { EventDocument } from './event.schema';
import { EventsRepository } from './events.repository';
import { EventLocalEngine } from './local-engine';

/**
 * A stand-in for the events model and the two link collections that behaves like FerretDB v1:
 * reads, counts and writes take time, and an update is read, change, write back.
 */
function fakeStore(options: { ferretDb?: boolean } = {}) {
  const doc: Record<string, unknown> = { _id: '1', participant_count: 0, wisher_count: 0 };
  const participants = new Set<string>();
  const wishers = new Set<string>();
  let writes = 0;
  let counts = 0;
  let overlapping = 0;
  let maxOverlap = 0;
  const tick = () => new Promise((r) => setTimeout(r, 2));
  const query = <T>(run: () => Promise<T>) => ({ lean: () => ({ exec: run }), exec: run });
  const model = {
    findById: () => query(async () => ({ ...doc })),
    findOneAndUpdate: (_: unknown, update: { $inc: Record<string, number> }) =>
      query(async () => {
        overlapping++;
        maxOverlap = Math.max(maxOverlap, overlapping);
        const read: Record<string, unknown> = { ...doc };
        await tick();
        for (const [k, d] of Object.entries(update.$inc)) read[k] = ((read[k] as number) ?? 0) + d;
        Object.assign(doc, read);
        writes++;
        overlapping--;
        return { ...doc };
      }),
    updateOne: (filter: Record<string, unknown>, update: { $set: Record<string, number> }) =>
      query(async () => {
        overlapping++;
        maxOverlap = Math.max(maxOverlap, overlapping);
        await tick();
        overlapping--;
        if ('counts_v' in filter && (doc.counts_v ?? null) !== filter.counts_v) return { matchedCount: 0 };
        Object.assign(doc, update.$set);
        writes++;
        return { matchedCount: 1 };
      }),
  };
  const counter = (links: Set<string>) => ({
    countForEvent: async () => {
      counts++;
      await tick();
      return links.size;
    },
  });
  const engine = DatabaseEngine.fixed(options.ferretDb ?? true ? 'local' : 'mongodb');
  const local = new EventLocalEngine(model as never, {} as never, {} as never, engine);
  const repo = new EventsRepository(
    model as unknown as Model<EventDocument>,
    counter(participants) as unknown as ParticipantsRepository,
    counter(wishers) as unknown as WishersRepository,
    engine,
    local,
  );
  return { repo, model, doc, local, participants, wishers, stats: () => ({ writes, counts, maxOverlap }) };
}

describe.each(['local', 'mongodb'] as const)('EventsRepository.change, %s branch', (branch) => {
  it('keeps counters equal to their sources under 200 concurrent joins and wishes, with a few counter writes', async () => {
    const { repo, doc, local, participants, wishers, stats } = fakeStore({ ferretDb: branch === 'local' });
    const add = (links: Set<string>, user: string) => async () => (links.has(user) ? 0 : (links.add(user), 1));
    const results = await Promise.all([
      ...Array.from({ length: 200 }, (_, i) => repo.change('1', 'participant_count', add(participants, `u${i}`))),
      ...Array.from({ length: 200 }, (_, i) => repo.change('1', 'wisher_count', add(wishers, `u${i}`))),
    ]);
    expect(doc).toMatchObject({ participant_count: 200, wisher_count: 200 });
    expect(stats().maxOverlap).toBe(1);
    expect(stats().writes).toBeLessThanOrEqual(3);
    // the local branch never counts on the write path (a scan on FerretDB)
    if (branch === 'local') expect(stats().counts).toBe(0);
    expect(results.every((r) => r.moved === 1)).toBe(true);
    expect(results[results.length - 1].counts).toEqual({ participant_count: 200, wisher_count: 200 });
    // joining again moves nothing
    expect((await repo.change('1', 'participant_count', add(participants, 'u1'))).moved).toBe(0);
    expect(doc.participant_count).toBe(200);
    // the local branch's lists show the event as stored after its last counter write
    expect(local.events.get('1')).toEqual(branch === 'local' ? doc : undefined);
  });

  it('refuses a change that throws alone', async () => {
    const { repo, doc, participants } = fakeStore({ ferretDb: branch === 'local' });
    const results = await Promise.allSettled([
      repo.change('1', 'participant_count', async () => { throw new Error('bad link'); }),
      repo.change('1', 'participant_count', async () => (participants.add('a'), 1)),
    ]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'fulfilled']);
    expect(doc.participant_count).toBe(1);
  });
});

describe('EventsRepository.recount', () => {
  it('keeps counters equal to their sources under 200 concurrent joins and wishes, in a few batches', async () => {
    const { repo, doc, participants, wishers, stats } = fakeStore();
    const results = await Promise.all([
      ...Array.from({ length: 200 }, (_, i) => (participants.add(`u${i}`), repo.recount('1', ['participant_count']))),
      ...Array.from({ length: 200 }, (_, i) => (wishers.add(`u${i}`), repo.recount('1', ['wisher_count']))),
    ]);
    expect(doc).toMatchObject({ participant_count: 200, wisher_count: 200 });
    expect(stats().maxOverlap).toBe(1);
    expect(stats().writes).toBeLessThanOrEqual(3);
    expect(stats().counts).toBeLessThanOrEqual(6);
    // each caller learns counts that include its own change
    for (const r of results) expect(r.participant_count + r.wisher_count).toBeGreaterThan(0);
    expect(results[results.length - 1]).toEqual({ participant_count: 200, wisher_count: 200 });
  });

  it('serves later recounts in a following batch, never dropping them', async () => {
    const { repo, doc, participants } = fakeStore();
    participants.add('a');
    const first = repo.recount('1', ['participant_count']);
    await new Promise((r) => setTimeout(r, 1)); // the first recount is under way
    participants.add('b');
    const more = await Promise.all([repo.recount('1', ['participant_count']), repo.recount('1', ['participant_count'])]);
    expect((await first).participant_count).toBeGreaterThanOrEqual(1);
    expect(more).toEqual(Array(2).fill({ participant_count: 2, wisher_count: 0 }));
    expect(doc.participant_count).toBe(2);
  });

  it('repairs a counter that drifted (a join that died before its recount), and the event held for the lists with it', async () => {
    const { repo, doc, local, participants } = fakeStore();
    doc.participant_count = 9;
    participants.add('a');
    expect(await repo.recount('1', ['participant_count'])).toEqual({ participant_count: 1, wisher_count: 0 });
    expect(doc.participant_count).toBe(1);
    expect(local.events.get('1')).toEqual(doc);
  });

  it('on MongoDB, counts again when another instance wrote in between (compare-and-swap on counts_v)', async () => {
    const { repo, model, doc, participants } = fakeStore({ ferretDb: false });
    participants.add('a');
    const updateOne = model.updateOne;
    let raced = false;
    model.updateOne = (filter, update) => {
      if (!raced) {
        raced = true;
        participants.add('b');
        Object.assign(doc, { participant_count: 2, counts_v: 1 });
      }
      return updateOne(filter, update);
    };
    expect(await repo.recount('1', ['participant_count'])).toEqual({ participant_count: 2, wisher_count: 0 });
    expect(doc).toMatchObject({ participant_count: 2 });
  });

  it('reports a failed write to every caller of that batch, and recovers for the next', async () => {
    const { repo, model, wishers } = fakeStore();
    wishers.add('a');
    const updateOne = model.updateOne;
    model.updateOne = () => ({ lean: () => ({ exec: async () => { throw new Error('database down'); } }), exec: async () => { throw new Error('database down'); } });
    await expect(Promise.all([repo.recount('1', ['wisher_count']), repo.recount('1', ['wisher_count'])])).rejects.toThrow('database down');
    model.updateOne = updateOne;
    await expect(repo.recount('1', ['wisher_count'])).resolves.toEqual({ participant_count: 0, wisher_count: 1 });
  });
});
