import { countWithinBudget, LIST_PAGE_BUDGET_BYTES } from './reply-budget';
import { ServiceJson } from './service-json';

/**
 * Answers assembled from parts that are JSON already (a book as shown, held encoded), so a list
 * page is joined rather than encoded again part by part (docs/PERFORMANCE.md, "Search and lists"). Each
 * function writes exactly what JSON.stringify would write for the same value, keys in order.
 */

/** A JSON text in pieces, joined into bytes once, when the whole answer is known. */
export type JsonPieces = Array<string | Buffer>;

/** The bytes of an object before and after the value of one of its fields (`jsonAround`). */
export interface JsonAround {
  readonly head: Buffer;
  readonly tail: Buffer;
}

/**
 * The object `{...before, [key]: value, ...after}` as the bytes around `value`: `head`, then the
 * value's own JSON, then `tail` make what JSON.stringify writes for it, keys in order. A service
 * holds the two beside an entry and joins them with a value it holds encoded too (a book as shown).
 */
export function jsonAround(before: Record<string, unknown>, key: string, after: Record<string, unknown>): JsonAround {
  const opening = JSON.stringify(before);
  const closing = JSON.stringify(after);
  // `{}` (nothing, or only undefined fields) adds no field and no comma
  const head = `${opening.length > 2 ? `${opening.slice(0, -1)},` : '{'}${JSON.stringify(key)}:`;
  const tail = closing.length > 2 ? `,${closing.slice(1)}` : '}';
  return { head: Buffer.from(head), tail: Buffer.from(tail) };
}

/**
 * A list page (`{start, count, total, <key>: [...]}`, docs/api/README.md) of items given as JSON,
 * within the page budget of reply-budget.ts: the items that fit, in order, and always the first;
 * `count` says how many came. Its bytes are written once, into one buffer.
 */
export function pageJson<T>(key: string, start: number, total: number, items: JsonPieces[], budget = LIST_PAGE_BUDGET_BYTES): ServiceJson<T> {
  // each item takes its bytes and a comma
  const count = countWithinBudget(items.length, (i) => byteLengthOf(items[i]) + 1, budget);
  const pieces: JsonPieces = [`{"start":${start},"count":${count},"total":${total},${JSON.stringify(key)}:[`];
  for (let i = 0; i < count; i++) {
    if (i > 0) pieces.push(',');
    for (const piece of items[i]) pieces.push(piece);
  }
  pieces.push(']}');
  return new ServiceJson<T>(joinJson(pieces));
}

/** The bytes of a JSON text given in pieces. */
export function joinJson(pieces: JsonPieces): Buffer {
  const bytes = Buffer.allocUnsafe(byteLengthOf(pieces));
  let at = 0;
  for (const piece of pieces) {
    if (typeof piece === 'string') at += bytes.write(piece, at, 'utf8');
    else {
      bytes.set(piece, at);
      at += piece.length;
    }
  }
  return bytes;
}

function byteLengthOf(pieces: JsonPieces): number {
  let length = 0;
  for (const piece of pieces) length += typeof piece === 'string' ? Buffer.byteLength(piece, 'utf8') : piece.length;
  return length;
}
