import { applyFields } from './fields';

describe('applyFields', () => {
  const book = { id: '1', title: 'T', rating: { average: '8.0' }, tags: [] };

  it('returns the body untouched without fields', () => {
    expect(applyFields(book, undefined)).toBe(book);
  });

  it('filters a single object at its top level, ignoring unknown names', () => {
    expect(applyFields(book, new Set(['id', 'rating', 'nope']))).toEqual({ id: '1', rating: { average: '8.0' } });
  });

  it('filters each element of a list and keeps the envelope', () => {
    const list = { start: 0, count: 2, total: 9, query: 'x', books: [book, { ...book, id: '2' }] };
    expect(applyFields(list, new Set(['id']), 'books')).toEqual({ start: 0, count: 2, total: 9, query: 'x', books: [{ id: '1' }, { id: '2' }] });
  });

  it('never changes the object it was given (cached bodies are shared)', () => {
    const list = { start: 0, count: 1, total: 1, books: [book] };
    applyFields(list, new Set(['id']), 'books');
    expect(list.books[0]).toBe(book);
    expect(Object.keys(book)).toEqual(['id', 'title', 'rating', 'tags']);
  });
});
