import { KeyedMutex, Metrics, ReadinessRegistry } from '@plaza/platform';
import { NO_SWEEP } from '@plaza/service-kit';
import type { Connection } from 'mongoose';
import { EventsRepository } from '../events/events.repository';
import { ParticipantsRepository } from '../participation/participants.repository';
import { WishersRepository } from '../participation/wishers.repository';
import { EventRepair } from './event-repair';

interface Counters { _id: string; participant_count: number; wisher_count: number }

describe('EventRepair.reconcile', () => {
  const lock = new KeyedMutex();
  let events: Map<string, Counters>;
  let participants: string[];
  let wishers: string[];
  let open: Set<string>;
  let repair: EventRepair;
  let recount: jest.Mock;
  let drift: jest.SpyInstance;
  /** Runs between the bulk reads of the links and the stream of the events. */
  let betweenReads: () => void;

  const countsByEvent = (links: string[]) => async () => {
    const counts = new Map<string, number>();
    for (const e of links) counts.set(e, (counts.get(e) ?? 0) + 1);
    return counts;
  };
  const event = (id: string, participant_count = 0, wisher_count = 0) => events.set(id, { _id: id, participant_count, wisher_count });
  /** A join and its counter, both written (what a finished write leaves). */
  const join = (id: string) => {
    participants.push(id);
    (events.get(id) as Counters).participant_count++;
  };

  beforeEach(() => {
    events = new Map();
    participants = [];
    wishers = [];
    open = new Set();
    betweenReads = () => undefined;
    const countForEvent = (links: () => string[]) => async (id: string) => links().filter((e) => e === id).length;
    recount = jest.fn(async (id: string) => {
      Object.assign(events.get(id) as Counters, { participant_count: await countForEvent(() => participants)(id), wisher_count: await countForEvent(() => wishers)(id) });
    });
    const repo = {
      exclusive: <T>(id: string, task: () => Promise<T>) => lock.run(id, task),
      storedById: async (id: string) => (events.has(id) ? { ...(events.get(id) as Counters) } : null),
      allCounters: async function* () {
        betweenReads();
        for (const e of [...events.values()]) yield { ...e };
      },
      recount,
    };
    repair = new EventRepair(
      {} as Connection, repo as unknown as EventsRepository,
      { countsByEvent: () => countsByEvent(participants)(), storedCountForEvent: countForEvent(() => participants) } as unknown as ParticipantsRepository,
      { countsByEvent: () => countsByEvent(wishers)(), storedCountForEvent: countForEvent(() => wishers) } as unknown as WishersRepository,
      {} as ReadinessRegistry, { info: jest.fn(), warn: jest.fn() } as never,
    );
    jest.spyOn(repair.journal, 'openTargets').mockImplementation(async () => new Set(open));
    jest.spyOn(repair.journal, 'sweep').mockResolvedValue(NO_SWEEP);
    drift = jest.spyOn(Metrics, 'reconcileDrift');
  });

  afterEach(() => drift.mockRestore());

  it('reports no drift for joins and wishes that land between the bulk reads', async () => {
    event('1');
    event('2');
    betweenReads = () => {
      join('1');
      join('1');
      wishers.push('2');
      (events.get('2') as Counters).wisher_count = 1;
    };
    const result = await repair.reconcile(true);
    expect(result.drifted).toEqual({});
    expect(result).toMatchObject({ repaired: 0, busy: 0, samples: [] });
    expect(drift).not.toHaveBeenCalled();
    expect(recount).not.toHaveBeenCalled();
  });

  it('reports, counts and repairs a real drift', async () => {
    event('1', 5, 0);
    participants.push('1');
    event('2', 0, 0);
    wishers.push('2', '2');
    const result = await repair.reconcile(true);
    expect(result.drifted).toEqual({ 'event.participant_count': 1, 'event.wisher_count': 1 });
    expect(result.samples).toContainEqual({ kind: 'event.participant_count', id: '1', stored: 5, source: 1 });
    expect(result.repaired).toBe(2);
    expect(drift).toHaveBeenCalledWith('event.participant_count', 1);
    expect(drift).toHaveBeenCalledWith('event.wisher_count', 1);
    expect(events.get('1')).toMatchObject({ participant_count: 1 });
    expect(events.get('2')).toMatchObject({ wisher_count: 2 });
    expect((await repair.reconcile(true)).drifted).toEqual({});
  });

  it('counts an event whose write opened in the journal during the check as busy, not drift', async () => {
    // a join's entry written after reconcile's first read of the journal, its link stored, its counter not yet
    event('1');
    participants.push('1');
    open.add('event:1');
    (repair.journal.openTargets as jest.Mock).mockImplementationOnce(async () => new Set());
    const result = await repair.reconcile(true);
    expect(result.drifted).toEqual({});
    expect(result).toMatchObject({ busy: 1, repaired: 0 });
    expect(drift).not.toHaveBeenCalled();
    expect(recount).not.toHaveBeenCalled();
  });

  it('checks each suspect under the lock its counter writer holds', async () => {
    event('1');
    participants.push('1'); // a join's link stored, its counter write waiting behind the lock it holds
    let release!: () => void;
    const held = lock.run('1', () => new Promise<void>((resolve) => (release = resolve)).then(() => void ((events.get('1') as Counters).participant_count = 1)));
    const result = repair.reconcile(false);
    await new Promise((resolve) => setTimeout(resolve, 20));
    release();
    await held;
    const after = await result;
    expect(after.drifted).toEqual({});
    expect(after.busy).toBe(0);
  });
});
