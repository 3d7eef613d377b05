import { EventsRepository } from '../events/events.repository';
import { EventUsers } from '../users/event-users';
import { EventUserLink, EventUserLinksRepository } from './event-user-links';
import { LinkImportBatch } from './link-import';
import { ParticipantsRepository } from './participants.repository';

/** In-memory links collection with the repository's insert semantics (duplicate id = existing). */
class MemoryLinks {
  readonly docs = new Map<string, EventUserLink & { participate_date?: string }>();
  readonly dates: string[] = [];

  async addMany(links: EventUserLink[]) {
    return links.map((l) => {
      if (this.docs.has(l._id)) return 'existing' as const;
      this.docs.set(l._id, l);
      return 'added' as const;
    });
  }

  async remove(eventId: string, userId: string) {
    return this.docs.delete(`${eventId}:${userId}`);
  }

  async setDate(eventId: string, userId: string, date: string) {
    this.dates.push(`${eventId}:${userId}=${date}`);
  }
}

function setup(options: { failCountOf?: string } = {}) {
  const counts: string[] = [];
  const journaled: string[] = [];
  const events = {
    byId: async (id: string) => (['1', '2'].includes(id) ? { _id: id } : null),
    recount: async (id: string, counters: string[]) => {
      if (id === options.failCountOf) throw new Error('database down');
      counts.push(`${id} ${counters.join(',')}`);
      return { participant_count: 0, wisher_count: 0 };
    },
  } as unknown as EventsRepository;
  const users = { exists: async (id: string) => id.startsWith('u') } as unknown as EventUsers;
  const participants = new MemoryLinks();
  const wishers = new MemoryLinks();
  const batch = new LinkImportBatch(
    events, users, participants as unknown as ParticipantsRepository, wishers as unknown as EventUserLinksRepository<EventUserLink>,
    () => new Date('2030-01-01T00:00:00Z'),
    { run: (targets: string[], work: () => Promise<unknown>) => (journaled.push(...targets), work()) } as never,
  );
  return { batch, counts, participants, wishers, journaled };
}

describe('LinkImportBatch', () => {
  it('recounts each event once per batch that added links to it, under a journal entry', async () => {
    const { batch, counts, participants, wishers, journaled } = setup();
    await participants.addMany([{ _id: '1:u0', event_id: '1', user_id: 'u0', created: new Date() }]);
    await batch.add('participant', '1', 'u1', 1);
    await batch.add('participant', '1', 'u2', 2, '2030-01-02');
    await batch.add('participant', '1', 'u1', 3); // the same link twice in one batch
    await batch.add('participant', '1', 'u0', 4, '2030-01-03'); // already there: only the day changes
    await batch.add('participant', '2', 'u1', 5);
    await batch.add('wisher', '2', 'u1', 6);
    expect(await batch.finish()).toEqual(new Map());
    expect(counts.sort()).toEqual(['1 participant_count', '2 participant_count', '2 wisher_count']);
    expect(journaled.sort()).toEqual(['event:1', 'event:2', 'event:2']);
    expect(participants.docs.get('1:u2')?.participate_date).toBe('2030-01-02');
    expect(participants.dates).toEqual(['1:u0=2030-01-03']);
    expect([...wishers.docs.keys()]).toEqual(['2:u1']);
  });

  it('refuses a line whose event or user does not exist', async () => {
    const { batch } = setup();
    await expect(batch.add('participant', '9', 'u1', 1)).rejects.toThrow('event 9 does not exist');
    await expect(batch.add('wisher', '1', 'x1', 2)).rejects.toThrow('user x1 does not exist');
  });

  it("takes back the links whose count cannot be written and reports their lines", async () => {
    const { batch, counts, participants } = setup({ failCountOf: '1' });
    await batch.add('participant', '1', 'u1', 7);
    await batch.add('participant', '1', 'u2', 8);
    await batch.add('participant', '2', 'u1', 9);
    const failed = await batch.finish();
    expect([...failed.keys()].sort()).toEqual([7, 8]);
    expect(failed.get(7)).toMatch(/participant_count of event 1 could not be written: database down/);
    expect([...participants.docs.keys()]).toEqual(['2:u1']);
    expect(counts).toEqual(['2 participant_count']);
  });
});
