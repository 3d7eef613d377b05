import { Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { NotePrivacy } from '@plaza/contracts';
import { DatabaseEngine } from '@plaza/service-kit';
import { Model } from 'mongoose';
import { NoteDocument } from './note.schema';
import { NotesByAuthor } from './notes-by-author';

/**
 * Everything the note service does differently on the local engine (docs/ENGINES.md lists each
 * difference with its tests): FerretDB v1 answers a filter other than `_id` by decoding every
 * document of the collection, so a user's notes are answered from the notes held here by author,
 * loaded once (in the background at start) and kept current by NotesRepository after each of its
 * writes; a read of one note by id is answered from them too. Exact because on the local engine the service runs as one instance (its lease) and that
 * repository is the collection's only writer.
 */
@Injectable()
export class NoteLocalEngine implements OnApplicationBootstrap {
  private readonly byAuthor = new NotesByAuthor();

  constructor(
    @InjectModel(NoteDocument.name) private readonly notes: Model<NoteDocument>,
    private readonly engine: DatabaseEngine,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.byAuthor.preload(this.engine, () => this.all());
  }

  /** A user's notes of the given privacies, newest first (the MongoDB branch's order). */
  async listByAuthor(authorId: string, privacies: NotePrivacy[], start: number, count: number): Promise<{ total: number; notes: NoteDocument[] }> {
    await this.byAuthor.ready(() => this.all());
    return this.byAuthor.page(authorId, privacies, start, count);
  }

  /** The note held under `id`, null when there is none; undefined until every note has loaded (the caller reads the database). */
  note(id: string): NoteDocument | null | undefined {
    if (!this.byAuthor.loaded) return undefined;
    return this.byAuthor.note(id) ?? null;
  }

  noteWritten(note: NoteDocument): void {
    this.byAuthor.put(note);
  }

  noteRemoved(id: string): void {
    this.byAuthor.remove(id);
  }

  private async *all(): AsyncIterable<NoteDocument> {
    yield* this.notes.find({}).lean<NoteDocument[]>().cursor();
  }
}
