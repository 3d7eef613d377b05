import { NotePrivacy } from '@plaza/contracts';
import { KeyedMutex, Metrics, ReadinessRegistry } from '@plaza/platform';
import { DatabaseEngine, NO_SWEEP } from '@plaza/service-kit';
import type { Connection } from 'mongoose';
import { CommentsRepository } from '../comments/comments.repository';
import { LikesRepository } from '../likes/likes.repository';
import { NoteCounterWriter } from '../notes/note-counters';
import { NotesRepository } from '../notes/notes.repository';
import { NotePictures } from '../pictures/note-pictures';
import { NoteRepair } from './note-repair';

interface Note { _id: string; liked_count: number; comments_count: number; privacy: NotePrivacy; photos: [] }
interface Like { note_id: string; user_id: string; note_privacy: NotePrivacy }

/** The notes, their likes and comments, and the journal's open targets, in memory. */
class Store {
  readonly lock = new KeyedMutex();
  notes = new Map<string, Note>();
  likes: Like[] = [];
  comments: Array<{ note_id: string }> = [];
  open = new Set<string>();

  note(id: string, fields: Partial<Note> = {}): void {
    this.notes.set(id, { _id: id, liked_count: 0, comments_count: 0, privacy: 'public', photos: [], ...fields });
  }

  /** A like and its counter, both written (what a finished write leaves). */
  like(noteId: string, userId: string): void {
    const note = this.notes.get(noteId) as Note;
    this.likes.push({ note_id: noteId, user_id: userId, note_privacy: note.privacy });
    note.liked_count++;
  }

  /** A note deleted with what hangs on it. */
  remove(noteId: string): void {
    this.notes.delete(noteId);
    this.likes = this.likes.filter((l) => l.note_id !== noteId);
    this.comments = this.comments.filter((c) => c.note_id !== noteId);
  }
}

describe('NoteRepair.reconcile', () => {
  let store: Store;
  let repair: NoteRepair;
  let recount: jest.Mock;
  let drift: jest.SpyInstance;
  /** Runs between the bulk reads of the sources and the stream of the notes. */
  let betweenReads: () => void;

  beforeEach(() => {
    store = new Store();
    betweenReads = () => undefined;
    const notes = {
      exclusive: <T>(id: string, task: () => Promise<T>) => store.lock.run(id, task),
      byId: async (id: string) => (store.notes.has(id) ? { ...(store.notes.get(id) as Note) } : null),
      allCounters: async () => (async function* () {
        betweenReads();
        for (const n of [...store.notes.values()]) yield { ...n };
      })(),
    };
    const likes = {
      summaryByNote: async () => {
        const summary = new Map<string, Map<NotePrivacy, number>>();
        for (const l of store.likes) {
          const byPrivacy = summary.get(l.note_id) ?? new Map<NotePrivacy, number>();
          byPrivacy.set(l.note_privacy, (byPrivacy.get(l.note_privacy) ?? 0) + 1);
          summary.set(l.note_id, byPrivacy);
        }
        return summary;
      },
      countForNote: async (id: string) => store.likes.filter((l) => l.note_id === id).length,
      countWithOtherPrivacy: async (id: string, privacy: NotePrivacy) => store.likes.filter((l) => l.note_id === id && l.note_privacy !== privacy).length,
      deleteForNote: async (id: string) => void (store.likes = store.likes.filter((l) => l.note_id !== id)),
      setNotePrivacy: async (id: string, privacy: NotePrivacy) => store.likes.filter((l) => l.note_id === id).forEach((l) => (l.note_privacy = privacy)),
    };
    const comments = {
      countsByNote: async () => {
        const counts = new Map<string, number>();
        for (const c of store.comments) counts.set(c.note_id, (counts.get(c.note_id) ?? 0) + 1);
        return counts;
      },
      countForNote: async (id: string) => store.comments.filter((c) => c.note_id === id).length,
      deleteForNote: async (id: string) => void (store.comments = store.comments.filter((c) => c.note_id !== id)),
    };
    recount = jest.fn(async (id: string) => {
      const note = store.notes.get(id);
      if (note) Object.assign(note, { liked_count: await likes.countForNote(id), comments_count: await comments.countForNote(id) });
    });
    const pictures = { setVisibility: async () => undefined, delete: async () => undefined };
    const logger = { info: jest.fn(), warn: jest.fn() };
    repair = new NoteRepair(
      {} as Connection, notes as unknown as NotesRepository, likes as unknown as LikesRepository, comments as unknown as CommentsRepository,
      { recount } as unknown as NoteCounterWriter, pictures as unknown as NotePictures, {} as ReadinessRegistry, DatabaseEngine.fixed('mongodb'), logger as never,
    );
    jest.spyOn(repair.journal, 'openTargets').mockImplementation(async () => new Set(store.open));
    jest.spyOn(repair.journal, 'sweep').mockResolvedValue(NO_SWEEP);
    drift = jest.spyOn(Metrics, 'reconcileDrift');
  });

  afterEach(() => drift.mockRestore());

  it('reports no drift for likes, comments and a delete that land between the bulk reads', async () => {
    store.note('1');
    store.note('2');
    store.note('3');
    store.like('3', 'a');
    store.comments.push({ note_id: '3' });
    betweenReads = () => {
      store.like('1', 'b');
      store.comments.push({ note_id: '2' });
      (store.notes.get('2') as Note).comments_count = 1;
      store.remove('3'); // its like and comment, read above, now look like a deleted note's leftovers
    };
    const result = await repair.reconcile(true);
    expect(result.drifted).toEqual({});
    expect(result).toMatchObject({ repaired: 0, busy: 0, samples: [] });
    expect(drift).not.toHaveBeenCalled();
    expect(recount).not.toHaveBeenCalled();
  });

  it('reports, counts and repairs a real drift: a counter, a privacy copy, a deleted note\'s likes', async () => {
    store.note('1', { liked_count: 7 });
    store.likes.push({ note_id: '1', user_id: 'a', note_privacy: 'public' });
    store.note('2', { privacy: 'private', liked_count: 1 });
    store.likes.push({ note_id: '2', user_id: 'a', note_privacy: 'public' });
    store.likes.push({ note_id: '9', user_id: 'a', note_privacy: 'public' });
    const result = await repair.reconcile(true);
    expect(result.drifted).toEqual({ 'note.liked_count': 1, 'note_like.note_privacy': 1, 'note_like.orphan': 1 });
    expect(result.repaired).toBe(3);
    expect(result.samples).toContainEqual({ kind: 'note.liked_count', id: '1', stored: 7, source: 1 });
    expect(drift).toHaveBeenCalledWith('note.liked_count', 1);
    expect(drift).toHaveBeenCalledWith('note_like.orphan', 1);
    expect(store.notes.get('1')?.liked_count).toBe(1);
    expect(store.likes).toEqual([
      { note_id: '1', user_id: 'a', note_privacy: 'public' },
      { note_id: '2', user_id: 'a', note_privacy: 'private' },
    ]);
    expect((await repair.reconcile(true)).drifted).toEqual({});
  });

  it('a dry run reports a real drift and changes nothing', async () => {
    store.note('1', { comments_count: 2 });
    const result = await repair.reconcile(false);
    expect(result).toMatchObject({ drifted: { 'note.comments_count': 1 }, repaired: 0 });
    expect(recount).not.toHaveBeenCalled();
    expect(store.notes.get('1')?.comments_count).toBe(2);
  });

  it('counts a note whose write opened in the journal during the check as busy, not drift', async () => {
    // a like's entry written after reconcile's first read of the journal, its first step stored, its counter not yet
    store.note('1');
    store.likes.push({ note_id: '1', user_id: 'a', note_privacy: 'public' });
    store.open.add('note:1');
    (repair.journal.openTargets as jest.Mock).mockImplementationOnce(async () => new Set());
    const result = await repair.reconcile(true);
    expect(result.drifted).toEqual({});
    expect(result).toMatchObject({ busy: 1, repaired: 0 });
    expect(drift).not.toHaveBeenCalled();
  });

  it('does not confirm a difference that another instance settles between the two checks', async () => {
    store.note('1');
    store.likes.push({ note_id: '1', user_id: 'a', note_privacy: 'public' });
    const openTargets = repair.journal.openTargets as jest.Mock;
    openTargets.mockImplementationOnce(async () => new Set()).mockImplementationOnce(async () => {
      // another instance's counter write lands (and its entry is gone) between the checks
      (store.notes.get('1') as Note).liked_count = 1;
      return new Set();
    });
    const result = await repair.reconcile(false);
    expect(result.drifted).toEqual({});
    expect(result).toMatchObject({ busy: 1 });
  });
});
