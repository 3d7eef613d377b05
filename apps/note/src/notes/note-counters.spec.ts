import { KeyedMutex } from '@plaza/platform';
import { DatabaseEngine } from '@plaza/service-kit';
import { CommentsRepository } from '../comments/comments.repository';
import { LikesRepository } from '../likes/likes.repository';
import { NoteLocalEngine } from './local-engine';
import { NoteCounterWriter } from './note-counters';
import { NoteCounters, NotesRepository, StoredNote } from './notes.repository';

/** An in-memory notes collection whose reads and writes take time, like FerretDB v1, and the two sources. */
class SlowNotes {
  readonly lock = new KeyedMutex();
  notes = new Map<string, StoredNote>();
  likes = new Set<string>();
  comments = new Set<string>();
  writes = 0;
  counts = 0;

  exclusive<T>(id: string, task: () => Promise<T>): Promise<T> {
    return this.lock.run(id, task);
  }

  async byId(id: string): Promise<StoredNote | null> {
    await tick();
    const note = this.notes.get(id);
    return note ? { ...note } : null;
  }

  async setCounters(current: StoredNote, counts: NoteCounters): Promise<StoredNote | null> {
    this.writes++;
    await tick();
    const note = this.notes.get(current._id);
    if (!note || (note.counts_v ?? 0) !== (current.counts_v ?? 0)) return null;
    const stored = { ...note, ...counts, counts_v: (note.counts_v ?? 0) + 1 };
    this.notes.set(current._id, stored);
    return { ...stored };
  }

  async countLikes(noteId: string): Promise<number> {
    this.counts++;
    await tick();
    return [...this.likes].filter((l) => l.startsWith(`${noteId}:`)).length;
  }

  async countComments(noteId: string): Promise<number> {
    this.counts++;
    await tick();
    return [...this.comments].filter((c) => c.startsWith(`${noteId}:`)).length;
  }

  /** Every note's count of `source` (the local engine's count at start). */
  countsByNote(source: Set<string>): Map<string, number> {
    const counts = new Map<string, number>();
    for (const key of source) counts.set(key.split(':')[0], (counts.get(key.split(':')[0]) ?? 0) + 1);
    return counts;
  }

  /** The likes' summary by note and privacy copy (all public here). */
  likesByNote(): Map<string, Map<string, number>> {
    return new Map([...this.countsByNote(this.likes)].map(([id, n]) => [id, new Map([['public', n]])]));
  }
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 1));
const note = (id: string): StoredNote => ({
  _id: id, author_id: '1', title: 't', content: 'c', privacy: 'public', can_reply: true, photos: [],
  publish_time: new Date(0), update_time: new Date(0), liked_count: 0, comments_count: 0,
});

describe.each(['local', 'mongodb'] as const)('NoteCounterWriter, %s branch', (branch) => {
  let store: SlowNotes;
  let local: NoteLocalEngine;
  let writer: NoteCounterWriter;
  /** The note as shown: its counters held in memory on the local branch, stored on MongoDB's. */
  const current = () => {
    const stored = store.notes.get('1') as StoredNote;
    return branch === 'local' ? local.withCounters(stored) : stored;
  };
  /** Counters off their sources (a write that died between the two, on MongoDB; a bug, on the local engine). */
  const drift = (counters: NoteCounters) => {
    if (branch === 'local') local.setCounters('1', counters);
    else store.notes.set('1', { ...note('1'), ...counters });
  };
  const like = (user: string) => async () => (store.likes.has(`1:${user}`) ? 0 : (store.likes.add(`1:${user}`), 1));

  beforeEach(async () => {
    store = new SlowNotes();
    store.notes.set('1', note('1'));
    const likes = { countForNote: (id: string) => store.countLikes(id), summaryByNote: async () => store.likesByNote() } as unknown as LikesRepository;
    const comments = { countForNote: (id: string) => store.countComments(id), countsByNote: async () => store.countsByNote(store.comments) } as unknown as CommentsRepository;
    const engine = DatabaseEngine.fixed(branch);
    local = new NoteLocalEngine(undefined as never, likes, comments, engine);
    if (branch === 'local') await local.countersReady();
    writer = new NoteCounterWriter(store as unknown as NotesRepository, likes, comments, engine, local);
  });

  it('counts 200 concurrent likes exactly, with a handful of counter writes', async () => {
    const results = await Promise.all(Array.from({ length: 200 }, (_, i) => writer.change('1', 'liked_count', like(`u${i}`))));
    expect(current().liked_count).toBe(200);
    // the local branch neither counts on the write path (a scan on FerretDB) nor writes the note
    if (branch === 'local') expect({ counts: store.counts, writes: store.writes }).toEqual({ counts: 0, writes: 0 });
    else expect(Math.max(store.counts, store.writes)).toBeLessThan(10);
    expect(results.every((r) => r.moved === 1 && r.note !== null)).toBe(true);
    expect(Math.max(...results.map((r) => r.note?.liked_count ?? 0))).toBe(200);
  });

  it('moves nothing for a change that changed nothing (liking twice)', async () => {
    await writer.change('1', 'liked_count', like('a'));
    const again = await writer.change('1', 'liked_count', like('a'));
    expect(again.moved).toBe(0);
    expect(current().liked_count).toBe(1);
  });

  it('repairs a counter that drifted (a write that died before its counter) by a recount', async () => {
    drift({ liked_count: 7, comments_count: 3 });
    store.likes.add('1:a');
    await writer.recount('1', ['liked_count', 'comments_count']);
    expect(current()).toMatchObject({ liked_count: 1, comments_count: 0 });
  });

  it('refuses a change that throws alone, and writes the others', async () => {
    const results = await Promise.allSettled([
      writer.change('1', 'comments_count', async () => { throw new Error('closed'); }),
      writer.change('1', 'comments_count', async () => (store.comments.add('1:c1'), 1)),
    ]);
    expect(results[0]).toMatchObject({ status: 'rejected' });
    expect(results[1]).toMatchObject({ status: 'fulfilled', value: { moved: 1 } });
    expect(current().comments_count).toBe(1);
  });

  it('runs no change for a note that is gone, and writes nothing', async () => {
    let ran = false;
    expect(await writer.change('2', 'liked_count', async () => ((ran = true), 1))).toEqual({ note: null, moved: 0 });
    expect(ran).toBe(false);
    expect(store.writes).toBe(0);
  });

  it('is not lost by an edit holding the note', async () => {
    const edit = store.exclusive('1', async () => {
      const read = (await store.byId('1')) as StoredNote;
      await tick();
      store.notes.set('1', { ...read, title: 'edited' });
    });
    await Promise.all([edit, ...Array.from({ length: 20 }, (_, i) => writer.change('1', 'liked_count', like(`u${i}`)))]);
    expect(current()).toMatchObject({ title: 'edited', liked_count: 20 });
  });

  it('a recount and changes in one batch agree', async () => {
    drift({ liked_count: 5 });
    await Promise.all([writer.change('1', 'liked_count', like('a')), writer.recount('1', ['liked_count']), writer.change('1', 'liked_count', like('b'))]);
    expect(current().liked_count).toBe(2);
  });

  it('fails the batch when its counter write (MongoDB) or recount fails, and serves the next one', async () => {
    const failing = branch === 'local'
      ? jest.spyOn(store, 'countLikes').mockRejectedValueOnce(new Error('database down'))
      : jest.spyOn(store, 'setCounters').mockRejectedValueOnce(new Error('database down'));
    if (branch === 'local') {
      store.likes.add('1:a');
      await expect(writer.recount('1', ['liked_count'])).rejects.toThrow('database down');
      failing.mockRestore();
      await writer.recount('1', ['liked_count']);
      expect(current().liked_count).toBe(1);
      return;
    }
    await expect(writer.change('1', 'liked_count', like('a'))).rejects.toThrow('database down');
    failing.mockRestore();
    await writer.recount('1', ['liked_count']);
    expect(current().liked_count).toBe(1);
  });
});

describe('NoteCounterWriter, MongoDB branch with several instances', () => {
  it('counts again when another instance recounted in between (compare-and-swap)', async () => {
    const store = new SlowNotes();
    store.notes.set('1', note('1'));
    const likes = { countForNote: (id: string) => store.countLikes(id) } as unknown as LikesRepository;
    const engine = DatabaseEngine.fixed('mongodb');
    const writer = new NoteCounterWriter(store as unknown as NotesRepository, likes, {} as CommentsRepository, engine, new NoteLocalEngine(undefined as never, likes, {} as CommentsRepository, engine));
    const setCounters = store.setCounters.bind(store);
    let raced = false;
    jest.spyOn(store, 'setCounters').mockImplementation(async (n, counts) => {
      if (!raced) {
        raced = true;
        // another instance: a like and its recount land between this count and this write
        store.likes.add('1:b');
        store.notes.set('1', { ...(store.notes.get('1') as StoredNote), liked_count: 2, counts_v: 1 });
      }
      return setCounters(n, counts);
    });
    const { note: after } = await writer.change('1', 'liked_count', async () => (store.likes.add('1:a'), 1));
    expect(after?.liked_count).toBe(2);
    expect(store.notes.get('1')?.liked_count).toBe(2);
  });
});
