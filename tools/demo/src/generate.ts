import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { AreaGenerator, CatalogueSize, DEMO_SIZE } from './catalogue';
import { bookGenerator } from './generators/book';
import { eventGenerator } from './generators/event';
import { identityGenerator } from './generators/identity';
import { movieGenerator } from './generators/movie';
import { Random } from './random';

/** Every area's generator, in import order. Each area adds its own here. */
export const GENERATORS: Record<string, AreaGenerator> = {
  identity: identityGenerator,
  book: bookGenerator,
  movie: movieGenerator,
  event: eventGenerator,
};

/** Writes the catalogue as NDJSON (the import format of docs/api/import.md); returns counts per kind. */
export async function writeCatalogue(path: string, size: CatalogueSize = DEMO_SIZE, seed = 20261122): Promise<Record<string, number>> {
  const out = createWriteStream(path, { encoding: 'utf8' });
  const counts: Record<string, number> = {};
  const root = new Random(seed);
  for (const [area, generate] of Object.entries(GENERATORS)) {
    for (const record of generate(root.fork(area), size)) {
      counts[record.kind] = (counts[record.kind] ?? 0) + 1;
      if (!out.write(`${JSON.stringify(record)}\n`)) await once(out, 'drain');
    }
  }
  out.end();
  await once(out, 'finish');
  return counts;
}
