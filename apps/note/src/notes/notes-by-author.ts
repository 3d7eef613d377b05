import { NotePrivacy } from '@plaza/contracts';
import { LocalReadModel } from '@plaza/service-kit';
import { NoteDocument } from './note.schema';

/**
 * The privacies each kind of viewer of a user's list sees (NoteAccess.visiblePrivacies): the
 * author every note, a friend public and friends-only ones, anyone else public ones.
 */
const SHELVES: ReadonlyArray<readonly NotePrivacy[]> = [['public', 'friend', 'private'], ['public', 'friend'], ['public']];

interface Author {
  ids: Set<string>;
  /** The ids of each shelf (SHELVES), newest first; built at the author's first read, then kept in order by each write. */
  shelves?: string[][];
}

/**
 * Every note, held whole (a list shows each note's content), grouped by author for the local
 * engine: FerretDB answers `{author_id, privacy}` by decoding every note of the collection
 * (docs/ENGINES.md, point 2), so a user's list is read from here instead. Each author's notes are
 * kept in the database's order on one list per kind of viewer, so a page costs a slice of it
 * whatever the size of the collection or of the author's list. Loading and upkeep: LocalReadModel.
 */
export class NotesByAuthor extends LocalReadModel<NoteDocument> {
  private readonly notes = new Map<string, NoteDocument>();
  private readonly authors = new Map<string, Author>();

  get size(): number {
    return this.notes.size;
  }

  /** The note held under `id` (a copy: the caller may spread or change it), or undefined. */
  note(id: string): NoteDocument | undefined {
    const held = this.notes.get(id);
    return held && { ...held };
  }

  /** Every note held, as held: the caller copies what it changes. */
  all(): IterableIterator<NoteDocument> {
    return this.notes.values();
  }

  /** A page of `authorId`'s notes of the given privacies, newest first, and how many there are. */
  page(authorId: string, privacies: readonly NotePrivacy[], start: number, count: number): { total: number; notes: NoteDocument[] } {
    const shelves = this.shelvesOf(authorId);
    if (!shelves) return { total: 0, notes: [] };
    const shelf = SHELVES.findIndex((s) => s.length === privacies.length && s.every((p) => privacies.includes(p)));
    // any other set of privacies (none is asked for today) is filtered from the author's whole list
    const ids = shelf >= 0 ? shelves[shelf] : shelves[0].filter((id) => privacies.includes(this.held(id).privacy));
    return { total: ids.length, notes: count === 0 ? [] : ids.slice(start, start + count).map((id) => this.held(id)) };
  }

  protected store(doc: NoteDocument): void {
    const note = { ...doc };
    const before = this.notes.get(note._id);
    // a change that moves nothing (counters, text, pictures) replaces the note where it is
    if (before && before.author_id === note.author_id && before.privacy === note.privacy && time(before) === time(note)) {
      this.notes.set(note._id, note);
      return;
    }
    if (before) this.unshelve(before);
    this.notes.set(note._id, note);
    this.shelve(note);
  }

  protected drop(id: string): void {
    const before = this.notes.get(id);
    if (!before) return;
    this.unshelve(before);
    this.notes.delete(id);
  }

  private held(id: string): NoteDocument {
    return this.notes.get(id) as NoteDocument;
  }

  private shelvesOf(authorId: string): string[][] | undefined {
    const author = this.authors.get(authorId);
    if (!author) return undefined;
    if (!author.shelves) {
      const all = [...author.ids].map((id) => this.held(id)).sort(newestFirst);
      author.shelves = SHELVES.map((privacies) => all.filter((n) => privacies.includes(n.privacy)).map((n) => n._id));
    }
    return author.shelves;
  }

  /** Adds a note that is held already (`notes`) to its author's lists. */
  private shelve(note: NoteDocument): void {
    let author = this.authors.get(note.author_id);
    if (!author) this.authors.set(note.author_id, (author = { ids: new Set() }));
    author.ids.add(note._id);
    author.shelves?.forEach((shelf, i) => {
      if (SHELVES[i].includes(note.privacy)) shelf.splice(this.position(shelf, note), 0, note._id);
    });
  }

  /** Takes a note out of its author's lists while it is still held as it was placed. */
  private unshelve(note: NoteDocument): void {
    const author = this.authors.get(note.author_id);
    if (!author) return;
    author.ids.delete(note._id);
    author.shelves?.forEach((shelf, i) => {
      if (!SHELVES[i].includes(note.privacy)) return;
      const at = this.position(shelf, note);
      if (shelf[at] === note._id) shelf.splice(at, 1);
    });
    if (author.ids.size === 0) this.authors.delete(note.author_id);
  }

  /** Where `note` goes in `shelf` (newest first): the first place whose note does not come before it. */
  private position(shelf: string[], note: NoteDocument): number {
    let low = 0;
    let high = shelf.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (newestFirst(this.held(shelf[mid]), note) < 0) low = mid + 1;
      else high = mid;
    }
    return low;
  }
}

function time(note: NoteDocument): number {
  return new Date(note.publish_time).getTime();
}

/**
 * The database's order of a user's notes, `{publish_time: -1, _id: -1}`: `_id` is a string there,
 * compared as one (so "999" comes before "1000"), which a plain `<` of two digit strings matches.
 */
export function newestFirst(a: NoteDocument, b: NoteDocument): number {
  return time(b) - time(a) || (a._id < b._id ? 1 : a._id > b._id ? -1 : 0);
}
