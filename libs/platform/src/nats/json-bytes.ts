import { countWithinBudget, LIST_PAGE_BUDGET_BYTES } from './reply-budget';
import { ServiceJson } from './service-json';

/**
 * Answers assembled from parts that are JSON already (a book as shown, held encoded), so a list
 * page is joined rather than encoded again part by part (docs/PERFORMANCE.md, "Search and lists"). Each
 * function writes exactly what JSON.stringify would write for the same value, keys in order.
 */

/** A JSON text in pieces, joined into bytes once, when the whole answer is known. */
export type JsonPieces = Array<string | Buffer>;

/** A field whose value is given as JSON bytes. */
export interface JsonField {
  readonly key: string;
  readonly json: Buffer;
}

export function jsonField(key: string, json: Buffer): JsonField {
  return { key, json };
}

const isJsonField = (part: object): part is JsonField => (part as Partial<JsonField>).json instanceof Buffer && typeof (part as Partial<JsonField>).key === 'string';

/** The JSON of an object made of `parts` in order: plain objects' own fields, and JSON fields. */
export function objectJson(...parts: Array<Record<string, unknown> | JsonField>): JsonPieces {
  const pieces: JsonPieces = [];
  let text = '{';
  for (const part of parts) {
    const comma = text.length > 1 || pieces.length > 0 ? ',' : '';
    if (isJsonField(part)) {
      pieces.push(`${text}${comma}${JSON.stringify(part.key)}:`, part.json);
      text = '';
      continue;
    }
    const fields = JSON.stringify(part);
    if (fields.length > 2) text += `${comma}${fields.slice(1, -1)}`;
  }
  pieces.push(`${text}}`);
  return pieces;
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
