/**
 * Sortable text keys for the ordered id lists (listings): comparing two keys as strings orders
 * the records. Ids are strings of digits of up to 20; times are milliseconds since 1970.
 */
const ID_WIDTH = 20;
const TIME_WIDTH = 15;
const COUNT_WIDTH = 12;

const pad = (n: number, width: number) => String(Math.max(0, Math.floor(n))).padStart(width, '0');
const padId = (id: string) => id.padStart(ID_WIDTH, '0');
/** The digit-wise complement: ascending order of the result is descending order of the input. */
const invert = (digits: string) => digits.replace(/\d/g, (d) => String(9 - Number(d)));

/** Album order: oldest first, then by id. */
export function albumKey(created: Date, id: string): string {
  return `${pad(created.getTime(), TIME_WIDTH)}|${padId(id)}`;
}

/** Most useful first, then newest, then the higher id. */
export function popularKey(usefulCount: number, created: Date, id: string): string {
  return `${invert(pad(usefulCount, COUNT_WIDTH))}|${invert(pad(created.getTime(), TIME_WIDTH))}|${invert(padId(id))}`;
}

/** Newest first, then the higher id. */
export function newestKey(created: Date, id: string): string {
  return `${invert(pad(created.getTime(), TIME_WIDTH))}|${invert(padId(id))}`;
}
