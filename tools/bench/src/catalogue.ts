import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';

export interface CatalogueIds {
  books: string[];
  movies: string[];
  users: Array<{ id: string; uid: string }>;
  /** The books' tag names, each once (the searches by tag). */
  bookTags: string[];
  events: string[];
}

/** The ids a benchmark needs, read back from the generated NDJSON catalogue. */
export async function readIds(file: string): Promise<CatalogueIds> {
  const ids: CatalogueIds = { books: [], movies: [], users: [], bookTags: [], events: [] };
  const tags = new Set<string>();
  for await (const line of createInterface({ input: createReadStream(file, 'utf8'), crlfDelay: Infinity })) {
    if (!line) continue;
    const record = JSON.parse(line) as { kind: string; id?: string; uid?: string; tags?: Array<{ name: string }> };
    if (record.kind === 'book' && record.id) {
      ids.books.push(record.id);
      for (const tag of record.tags ?? []) tags.add(tag.name);
    } else if (record.kind === 'event' && record.id) ids.events.push(record.id);
    else if (record.kind === 'movie' && record.id) ids.movies.push(record.id);
    else if (record.kind === 'user' && record.id && record.uid) ids.users.push({ id: record.id, uid: record.uid });
  }
  ids.bookTags = [...tags];
  return ids;
}
