import { NotePrivacy } from '@plaza/contracts';
import { ReadinessRegistry } from '@plaza/platform';
import { DatabaseEngine } from '@plaza/service-kit';
import { CommentsRepository } from '../comments/comments.repository';
import { LikesRepository } from '../likes/likes.repository';
import { NoteLocalEngine } from './local-engine';
import { newestFirst } from './notes-by-author';
import { NotesRepository, StoredNote } from './notes.repository';

/** The notes collection as the repository uses it; `landThenFail` makes the next write land and then throw, as a lost reply does. */
class FakeNotes {
  readonly docs = new Map<string, StoredNote>();
  landThenFail = false;
  /** The driver's collection under the model, for the reads by id, the inserts and the counter writes. */
  readonly collection = {
    findOne: async (filter: { _id: string }) => this.copy(this.docs.get(filter._id)),
    insertOne: (doc: StoredNote) => this.insert(doc),
    updateOne: (filter: { _id: string }, update: { $set?: Partial<StoredNote>; $inc?: Record<string, number> }) => this.updateOne(filter, update).exec(),
  };

  findById(id: string) {
    return { lean: () => ({ exec: async () => this.copy(this.docs.get(id)) }) };
  }

  find() {
    const docs = [...this.docs.values()].map((d) => this.copy(d));
    return { lean: () => ({ cursor: async function* () { yield* docs; } }) };
  }

  async insert(doc: StoredNote): Promise<void> {
    this.docs.set(doc._id, { ...doc });
    this.answer();
  }

  updateOne(filter: { _id: string }, update: { $set?: Partial<StoredNote>; $inc?: Record<string, number> }) {
    return {
      exec: async () => {
        const doc = this.docs.get(filter._id);
        if (!doc) return { matchedCount: 0 };
        const changed = { ...doc, ...update.$set } as unknown as Record<string, number>;
        for (const [field, n] of Object.entries(update.$inc ?? {})) changed[field] = (changed[field] ?? 0) + n;
        this.docs.set(filter._id, changed as unknown as StoredNote);
        this.answer();
        return { matchedCount: 1 };
      },
    };
  }

  deleteOne(filter: { _id: string }) {
    return {
      exec: async () => {
        const deleted = this.docs.delete(filter._id);
        this.answer();
        return { deletedCount: deleted ? 1 : 0 };
      },
    };
  }

  /** What the database answers for a user's list. */
  list(authorId: string, privacies: NotePrivacy[]): StoredNote[] {
    return [...this.docs.values()].filter((d) => d.author_id === authorId && privacies.includes(d.privacy)).sort(newestFirst);
  }

  private answer(): void {
    if (!this.landThenFail) return;
    this.landThenFail = false;
    throw new Error('connection lost');
  }

  private copy(doc: StoredNote | undefined): StoredNote | null {
    return doc ? { ...doc } : null;
  }
}

const note = (id: string, privacy: NotePrivacy, second: number): StoredNote => ({
  _id: id, author_id: '7', title: `t${id}`, content: 'c', privacy, can_reply: true, photos: [],
  publish_time: new Date(second * 1000), update_time: new Date(second * 1000), liked_count: 0, comments_count: 0,
});

describe('NotesRepository on the local engine', () => {
  let db: FakeNotes;
  let notes: NotesRepository;

  let local: NoteLocalEngine;
  /** How many likes and comments each note has in their collections when the service starts; `failing` fails their count. */
  let sources: { likes: Map<string, number>; comments: Map<string, number>; failing?: boolean };
  let readiness: ReadinessRegistry;

  beforeEach(() => {
    db = new FakeNotes();
    sources = { likes: new Map(), comments: new Map() };
    const engine = DatabaseEngine.fixed('local');
    // the likes' summary by note and privacy copy: two privacies, to be added up
    const likes = {
      summaryByNote: async () => {
        if (sources.failing) throw new Error('database down');
        return new Map([...sources.likes].map(([id, n]) => [id, new Map([['public', n - Math.floor(n / 2)], ['friend', Math.floor(n / 2)]])]));
      },
    } as unknown as LikesRepository;
    const comments = { countsByNote: async () => sources.comments } as unknown as CommentsRepository;
    readiness = new ReadinessRegistry();
    local = new NoteLocalEngine(db as never, likes, comments, engine, readiness);
    notes = new NotesRepository(db as never, engine, local);
  });

  async function stored(id: string): Promise<StoredNote> {
    const found = await notes.byId(id);
    if (!found) throw new Error(`no note ${id}`);
    return found;
  }

  /** The held list equals the database's for every kind of viewer, with the counters held. */
  async function expectListsAsStored(): Promise<void> {
    for (const privacies of [['public', 'friend', 'private'], ['public', 'friend'], ['public']] as NotePrivacy[][]) {
      const stored = db.list('7', privacies).map((n) => local.withCounters(n));
      expect(await notes.listByAuthor('7', privacies, 0, 20)).toEqual({ total: stored.length, notes: stored });
    }
  }

  it("keeps a user's list as stored through every write of a note", async () => {
    db.docs.set('1', note('1', 'public', 1));
    await expectListsAsStored();
    await notes.insert(note('2', 'friend', 2));
    await notes.insert(note('3', 'public', 3));
    await expectListsAsStored();
    await notes.update(await stored('3'), { title: 'edited', privacy: 'private' });
    await expectListsAsStored();
    local.moveCounters('1', { liked_count: 2 });
    local.setCounters('2', { comments_count: 5 });
    await expectListsAsStored();
    expect((await notes.listByAuthor('7', ['public'], 0, 20)).notes.find((n) => n._id === '1')).toMatchObject({ liked_count: 2, comments_count: 0 });
    await notes.delete('2');
    await expectListsAsStored();
  });

  it('shows the counters counted from the likes and comments at start, never the stored ones, and moves them in memory', async () => {
    db.docs.set('1', { ...note('1', 'public', 1), liked_count: 9, comments_count: 9 });
    db.docs.set('2', note('2', 'public', 2));
    sources.likes.set('1', 3);
    sources.comments.set('1', 2);
    sources.comments.set('2', 1);
    expect(await stored('1')).toMatchObject({ liked_count: 3, comments_count: 2 });
    expect((await notes.listByAuthor('7', ['public'], 0, 20)).notes.map((n) => [n._id, n.liked_count, n.comments_count])).toEqual([['2', 0, 1], ['1', 3, 2]]);
    local.moveCounters('1', { liked_count: 1, comments_count: -1 });
    expect(await stored('1')).toMatchObject({ liked_count: 4, comments_count: 1 });
    // nothing of them written to the note
    expect(db.docs.get('1')).toMatchObject({ liked_count: 9, comments_count: 9 });
    expect((await collect(await notes.allCounters())).map((n) => [n._id, n.liked_count, n.comments_count])).toEqual([['1', 4, 1], ['2', 0, 1]]);
    // a note deleted takes its counters along: one of that id written again starts from its sources
    await notes.delete('1');
    await notes.insert(note('1', 'public', 1));
    expect(await stored('1')).toMatchObject({ liked_count: 0, comments_count: 0 });
  });

  it('is not ready until the counters are counted, and a probe after a failed count starts it again', async () => {
    sources.likes.set('1', 2);
    sources.failing = true;
    await local.onApplicationBootstrap();
    const ready = async () => (await readiness.report()).checks['note-counters'] === 'up';
    await new Promise((resolve) => setImmediate(resolve));
    expect(await ready()).toBe(false);
    sources.failing = false;
    expect(await ready()).toBe(false); // this probe starts the count again
    for (let i = 0; i < 3; i++) await new Promise((resolve) => setImmediate(resolve));
    expect(await ready()).toBe(true);
    // the likes of both privacy copies counted
    expect(local.withCounters({ _id: '1' })).toEqual({ _id: '1', liked_count: 2, comments_count: 0 });
  });

  it('reads a note by id from the database until the notes have loaded, then from the notes held, as stored', async () => {
    db.docs.set('1', note('1', 'public', 1));
    let reads = 0;
    const findOne = db.collection.findOne;
    db.collection.findOne = (filter) => {
      reads++;
      return findOne(filter);
    };
    expect(await notes.byId('1')).toEqual(db.docs.get('1'));
    expect(reads).toBe(1);
    await notes.listByAuthor('7', ['public'], 0, 20);
    local.moveCounters('1', { liked_count: 3 });
    const held = await notes.byId('1');
    expect(held).toEqual({ ...db.docs.get('1'), liked_count: 3 });
    expect(await notes.byId('404')).toBeNull();
    expect(reads).toBe(1);
    // the caller's copy: changing it changes nothing held
    (held as StoredNote).liked_count = 99;
    expect((await stored('1')).liked_count).toBe(3);
  });

  it('reads back a note whose write failed, since the write may have landed', async () => {
    await notes.insert(note('1', 'public', 1));
    await notes.listByAuthor('7', ['public'], 0, 20);
    db.landThenFail = true;
    await expect(notes.update(await stored('1'), { privacy: 'private' })).rejects.toThrow('connection lost');
    await expectListsAsStored();
    db.landThenFail = true;
    await expect(notes.delete('1')).rejects.toThrow('connection lost');
    await expectListsAsStored();
  });
});

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const item of items) all.push(item);
  return all;
}
