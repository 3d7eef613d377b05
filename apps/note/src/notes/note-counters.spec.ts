import { KeyedMutex } from '@plaza/platform';
import { NoteCounterWriter } from './note-counters';
import { NoteCounters, NotesRepository, StoredNote } from './notes.repository';

/** An in-memory notes collection whose writes take time and lose concurrent updates, like FerretDB v1. */
class SlowNotes {
  readonly lock = new KeyedMutex();
  notes = new Map<string, StoredNote>();
  writes = 0;

  exclusive<T>(id: string, task: () => Promise<T>): Promise<T> {
    return this.lock.run(id, task);
  }

  async byId(id: string): Promise<StoredNote | null> {
    await tick();
    const note = this.notes.get(id);
    return note ? { ...note } : null;
  }

  async addToCounters(id: string, delta: NoteCounters): Promise<boolean> {
    const note = await this.byId(id); // read, change, write back: not atomic
    this.writes++;
    await tick();
    if (!note) return false;
    this.notes.set(id, { ...note, liked_count: note.liked_count + (delta.liked_count ?? 0), comments_count: note.comments_count + (delta.comments_count ?? 0) });
    return true;
  }
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 1));
const note = (id: string): StoredNote => ({
  _id: id, author_id: '1', title: 't', content: 'c', privacy: 'public', can_reply: true, photos: [],
  publish_time: new Date(0), update_time: new Date(0), liked_count: 0, comments_count: 0,
});

describe('NoteCounterWriter', () => {
  let store: SlowNotes;
  let writer: NoteCounterWriter;
  const current = () => store.notes.get('1') as StoredNote;

  beforeEach(() => {
    store = new SlowNotes();
    store.notes.set('1', note('1'));
    writer = new NoteCounterWriter(store as unknown as NotesRepository);
  });

  it('counts 200 concurrent changes exactly, in a few writes', async () => {
    const results = await Promise.all(Array.from({ length: 200 }, () => writer.add('1', { liked_count: 1 })));
    expect(current().liked_count).toBe(200);
    expect(store.writes).toBeLessThan(10);
    expect(results.every((r) => r.counted && r.note !== null)).toBe(true);
    expect(Math.max(...results.map((r) => r.note?.liked_count ?? 0))).toBe(200);
  });

  it('sums both counters and both signs', async () => {
    await Promise.all([
      ...Array.from({ length: 30 }, () => writer.add('1', { comments_count: 1 })),
      ...Array.from({ length: 10 }, () => writer.add('1', { comments_count: -1 })),
      writer.add('1', { liked_count: 1 }),
    ]);
    expect(store.notes.get('1')).toMatchObject({ comments_count: 20, liked_count: 1 });
  });

  it('leaves out the changes settle refuses', async () => {
    const results = await Promise.all([
      writer.add('1', { comments_count: 1 }, () => false),
      writer.add('1', { comments_count: 1 }),
    ]);
    expect(results.map((r) => r.counted)).toEqual([false, true]);
    expect(current().comments_count).toBe(1);
  });

  it('counts nothing for a note that is gone', async () => {
    expect(await writer.add('2', { liked_count: 1 })).toEqual({ note: null, counted: false });
    expect(store.writes).toBe(0);
  });

  it('waits for an edit holding the note and is not lost by it', async () => {
    const edit = store.exclusive('1', async () => {
      const read = (await store.byId('1')) as StoredNote;
      await tick();
      store.notes.set('1', { ...read, title: 'edited' });
    });
    await Promise.all([edit, ...Array.from({ length: 20 }, () => writer.add('1', { liked_count: 1 }))]);
    expect(store.notes.get('1')).toMatchObject({ title: 'edited', liked_count: 20 });
  });

  it('fails the batch when the write fails, and serves the next one', async () => {
    const failing = jest.spyOn(store, 'addToCounters').mockRejectedValueOnce(new Error('database down'));
    await expect(writer.add('1', { liked_count: 1 })).rejects.toThrow('database down');
    failing.mockRestore();
    await expect(writer.add('1', { liked_count: 1 })).resolves.toMatchObject({ counted: true });
    expect(current().liked_count).toBe(1);
  });
});
