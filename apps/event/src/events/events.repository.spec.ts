import { Model } from 'mongoose';
import { EventDocument } from './event.schema';
import { EventsRepository } from './events.repository';

/**
 * A stand-in for the events model that behaves like FerretDB v1: an update reads the document,
 * waits, and writes it back, so two updates that overlap lose one.
 */
function fakeModel() {
  const doc = { _id: '1', participant_count: 0, wisher_count: 0 };
  let writes = 0;
  let overlapping = 0;
  let maxOverlap = 0;
  const tick = () => new Promise((r) => setTimeout(r, 2));
  const query = <T>(run: () => Promise<T>) => ({ lean: () => ({ exec: run }) });
  const model = {
    findOneAndUpdate: (_: unknown, update: { $inc: Record<string, number> }) =>
      query(async () => {
        overlapping++;
        maxOverlap = Math.max(maxOverlap, overlapping);
        const read: Record<string, string | number> = { ...doc };
        await tick();
        for (const [k, d] of Object.entries(update.$inc)) read[k] = (read[k] as number) + d;
        Object.assign(doc, read);
        writes++;
        overlapping--;
        return { ...doc };
      }),
    findById: () => query(async () => ({ ...doc })),
  };
  return { model: model as unknown as Model<EventDocument>, doc, stats: () => ({ writes, maxOverlap }) };
}

describe('EventsRepository.addToCount', () => {
  it('keeps counters exact under 200 concurrent changes and writes them in a few batches', async () => {
    const { model, doc, stats } = fakeModel();
    const repo = new EventsRepository(model);
    const results = await Promise.all([
      ...Array.from({ length: 200 }, () => repo.addToCount('1', 'participant_count', 1)),
      ...Array.from({ length: 200 }, () => repo.addToCount('1', 'wisher_count', 1)),
    ]);
    expect(doc).toMatchObject({ participant_count: 200, wisher_count: 200 });
    expect(stats().maxOverlap).toBe(1);
    expect(stats().writes).toBeLessThanOrEqual(3);
    // each caller learns counts that include its own change
    for (const r of results) expect(r.participant_count + r.wisher_count).toBeGreaterThan(0);
    expect(results[results.length - 1]).toEqual({ participant_count: 200, wisher_count: 200 });
  });

  it('writes later changes in a following batch, never dropping them', async () => {
    const { model, doc } = fakeModel();
    const repo = new EventsRepository(model);
    const first = repo.addToCount('1', 'participant_count', 1);
    await new Promise((r) => setTimeout(r, 1)); // the first write is under way
    const more = await Promise.all([repo.addToCount('1', 'participant_count', 1), repo.addToCount('1', 'participant_count', -1), repo.addToCount('1', 'participant_count', 1)]);
    expect(await first).toEqual({ participant_count: 1, wisher_count: 0 });
    expect(more).toEqual(Array(3).fill({ participant_count: 2, wisher_count: 0 }));
    expect(doc.participant_count).toBe(2);
  });

  it('reports a failed write to every caller of that batch, and recovers for the next', async () => {
    const { model } = fakeModel();
    const failing = { ...model, findOneAndUpdate: () => ({ lean: () => ({ exec: async () => { throw new Error('database down'); } }) }) };
    const repo = new EventsRepository(failing as unknown as Model<EventDocument>);
    await expect(Promise.all([repo.addToCount('1', 'wisher_count', 1), repo.addToCount('1', 'wisher_count', 1)])).rejects.toThrow('database down');
    (failing as { findOneAndUpdate: unknown }).findOneAndUpdate = model.findOneAndUpdate;
    await expect(repo.addToCount('1', 'wisher_count', 1)).resolves.toEqual({ participant_count: 0, wisher_count: 1 });
  });
});
