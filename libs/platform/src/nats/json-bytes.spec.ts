import { joinJson, jsonAround, JsonPieces, pageJson } from './json-bytes';

const bytes = (value: unknown) => Buffer.from(JSON.stringify(value));
const text = (pieces: JsonPieces) => joinJson(pieces).toString();
const pieces = (value: unknown): JsonPieces => [JSON.stringify(value)];

describe('jsonAround', () => {
  const around = (parts: { head: Buffer; tail: Buffer }, value: unknown) => text([parts.head, bytes(value), parts.tail]);

  it('writes what JSON.stringify writes for the same object, keys in the order given', () => {
    const book = { id: '7', title: '春天 "quoted" \u2028', tags: [{ count: 1, name: 'a\\b' }] };
    const entry = { id: 3, book_id: '7', book, comment: 'ünïcode', rating: undefined, updated: '2026-11-26 10:00:00' };
    const { id, book_id, book: _book, ...rest } = entry;
    expect(around(jsonAround({ id, book_id }, 'book', rest), book)).toBe(JSON.stringify(entry));
    expect(around(jsonAround({}, 'book', { id }), book)).toBe(JSON.stringify({ book, id }));
    expect(around(jsonAround({ id }, 'book', {}), book)).toBe(JSON.stringify({ id, book }));
  });

  it('adds nothing for empty parts or fields left undefined', () => {
    expect(around(jsonAround({}, 'a', {}), [1])).toBe('{"a":[1]}');
    expect(around(jsonAround({ x: undefined }, 'a', { y: undefined }), null)).toBe('{"a":null}');
  });
});

describe('pageJson', () => {
  it('writes the list envelope with the items as given', () => {
    const items = [{ id: 1 }, { id: 2, t: 'é' }];
    expect(pageJson('notes', 20, 42, items.map(pieces)).bytes.toString()).toBe(JSON.stringify({ start: 20, count: 2, total: 42, notes: items }));
    expect(pageJson('notes', 0, 0, []).bytes.toString()).toBe('{"start":0,"count":0,"total":0,"notes":[]}');
  });

  it('cuts the page at its budget, keeps the first item always, and counts what came', () => {
    // each item takes its bytes and a comma: 13 here
    const items = ['a'.repeat(10), 'b'.repeat(10), 'c'.repeat(10)].map(pieces);
    expect(JSON.parse(pageJson('x', 0, 3, items, 26).bytes.toString())).toEqual({ start: 0, count: 2, total: 3, x: ['a'.repeat(10), 'b'.repeat(10)] });
    expect(JSON.parse(pageJson('x', 0, 3, items, 5).bytes.toString()).count).toBe(1);
  });

  it('joins pieces of text and bytes, multi-byte characters included', () => {
    const { head, tail } = jsonAround({ a: '€😀' }, 'b', { d: 1 });
    const item = [head, bytes({ c: 'ü' }), tail];
    expect(pageJson('x', 0, 1, [item]).bytes.toString()).toBe(JSON.stringify({ start: 0, count: 1, total: 1, x: [{ a: '€😀', b: { c: 'ü' }, d: 1 }] }));
  });
});
