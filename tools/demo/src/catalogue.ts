import { Random } from './random';

/** How big a catalogue to make; `scale` 1 is the demo size. */
export interface CatalogueSize {
  users: number;
  books: number;
  movies: number;
  celebrities: number;
  events: number;
}

export const DEMO_SIZE: CatalogueSize = { users: 60, books: 3000, movies: 2000, celebrities: 1500, events: 600 };

export type CatalogueRecord = Record<string, unknown> & { kind: string };

/** One area's part of the catalogue: records in dependency order. */
export type AreaGenerator = (random: Random, size: CatalogueSize) => Iterable<CatalogueRecord>;

/** Ids of the demo users other generators may refer to (authors, owners, participants). */
export function demoUserIds(size: CatalogueSize): string[] {
  return Array.from({ length: size.users }, (_, i) => String(100001 + i));
}
