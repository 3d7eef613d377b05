/**
 * Sort keys stored with searchable records, so that a search is answered in order by an index
 * (`{search_terms: 1, search_rank: 1}`) instead of by ranking every match in a process.
 * Comparing two keys as strings orders the records: the more popular first, then the lower id.
 */
const COUNT_WIDTH = 12;
const ID_WIDTH = 20;

const pad = (n: number, width: number) => String(Math.min(10 ** width - 1, Math.max(0, Math.floor(n)))).padStart(width, '0');
/** The digit-wise complement: ascending order of the result is descending order of the number. */
const invert = (digits: string) => digits.replace(/\d/g, (d) => String(9 - Number(d)));

/** A count as a key whose ascending order is the count's descending order. */
export function descendingCount(count: number): string {
  return invert(pad(count, COUNT_WIDTH));
}

/** A digit-string id as a key in numeric order (longer ids are larger). */
export function idOrderKey(id: string): string {
  return id.padStart(ID_WIDTH, '0');
}

/** The record's place among equally relevant matches: by popularity (descending), then by id. */
export function searchRank(popularity: number, id: string): string {
  return `${descendingCount(popularity)}|${idOrderKey(id)}`;
}

/** The record's place among the matches of one tag: by that tag's count, then by its search rank. */
export function tagRank(count: number, rank: string): string {
  return `${descendingCount(count)}|${rank}`;
}
