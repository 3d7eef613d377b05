import { LIST_PAGE_BUDGET_BYTES } from './reply-budget';
import { ServiceJson } from './service-json';

/**
 * Answers assembled from parts that are JSON already (a book as shown, held encoded), so a list
 * page is joined rather than encoded again part by part (docs/PERFORMANCE.md, "Lists"). Each
 * function writes exactly what JSON.stringify would write for the same value, keys in order.
 */

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
export function objectJson(...parts: Array<Record<string, unknown> | JsonField>): Buffer {
  const chunks: Buffer[] = [];
  for (const part of parts) {
    if (isJsonField(part)) {
      chunks.push(Buffer.from(`${chunks.length ? ',' : '{'}${JSON.stringify(part.key)}:`), part.json);
      continue;
    }
    const text = JSON.stringify(part);
    if (text.length > 2) chunks.push(Buffer.from(`${chunks.length ? ',' : '{'}${text.slice(1, -1)}`));
  }
  chunks.push(Buffer.from(chunks.length ? '}' : '{}'));
  return Buffer.concat(chunks);
}

/**
 * A list page (`{start, count, total, <key>: [...]}`, docs/api/README.md) of items given as JSON,
 * within the page budget of reply-budget.ts: the items that fit, in order, and always the first;
 * `count` says how many came.
 */
export function pageJson<T>(key: string, start: number, total: number, items: Buffer[], budget = LIST_PAGE_BUDGET_BYTES): ServiceJson<T> {
  let used = 0;
  let count = 0;
  for (const item of items) {
    used += item.length;
    if (used > budget && count > 0) break;
    count++;
  }
  const chunks: Buffer[] = [Buffer.from(`{"start":${start},"count":${count},"total":${total},${JSON.stringify(key)}:[`)];
  for (let i = 0; i < count; i++) {
    if (i > 0) chunks.push(COMMA);
    chunks.push(items[i]);
  }
  chunks.push(CLOSE_PAGE);
  return new ServiceJson<T>(Buffer.concat(chunks));
}

const COMMA = Buffer.from(',');
const CLOSE_PAGE = Buffer.from(']}');
