import { DEMO_SIZE } from '../catalogue';
import { Random } from '../random';
import { bookGenerator, DEMO_BOOK_ID_START } from './book';

const generate = (books = DEMO_SIZE.books, seed = 7) => [...bookGenerator(new Random(seed), { ...DEMO_SIZE, books })];

function validIsbn13(isbn: string): boolean {
  if (!/^\d{13}$/.test(isbn)) return false;
  const sum = [...isbn].reduce((s, d, i) => s + Number(d) * (i % 2 === 0 ? 1 : 3), 0);
  return sum % 10 === 0;
}

function validIsbn10(isbn: string): boolean {
  if (!/^\d{9}[\dX]$/.test(isbn)) return false;
  const sum = [...isbn].reduce((s, d, i) => s + (d === 'X' ? 10 : Number(d)) * (10 - i), 0);
  return sum % 11 === 0;
}

describe('demo books', () => {
  const records = generate();
  const books = records.filter((r) => r.kind === 'book');
  const series = records.filter((r) => r.kind === 'series');

  it('makes size.books books with distinct ids, and some series', () => {
    expect(books).toHaveLength(DEMO_SIZE.books);
    expect(new Set(books.map((b) => b.id)).size).toBe(books.length);
    expect(books[0].id).toBe(String(DEMO_BOOK_ID_START));
    expect(series.length).toBeGreaterThan(20);
    expect(generate(5).filter((r) => r.kind === 'book')).toHaveLength(5);
    expect(generate(0)).toEqual([]);
  });

  it('is deterministic', () => {
    expect(generate(200)).toEqual(generate(200));
    expect(generate(200, 8)).not.toEqual(generate(200));
  });

  it('gives valid ISBNs, ratings out of 10 with one decimal, tags biggest first', () => {
    for (const book of books) {
      expect(validIsbn13(book.isbn13 as string)).toBe(true);
      expect(validIsbn10(book.isbn10 as string)).toBe(true);
      const rating = book.rating as { numRaters: number; average: string };
      expect(rating.average).toMatch(/^\d{1,2}\.\d$/);
      expect(Number(rating.average)).toBeLessThanOrEqual(10);
      const counts = (book.tags as Array<{ count: number }>).map((t) => t.count);
      expect(counts).toEqual([...counts].sort((a, b) => b - a));
    }
  });

  it('mixes Chinese and English titles, and every series named by a book exists', () => {
    const chinese = books.filter((b) => /[\u4e00-\u9fff]/.test(b.title as string)).length;
    expect(chinese / books.length).toBeGreaterThan(0.4);
    expect(chinese / books.length).toBeLessThan(0.8);
    const ids = new Set(series.map((s) => s.id));
    const inSeries = books.filter((b) => b.series);
    expect(inSeries.length).toBeGreaterThan(50);
    for (const book of inSeries) expect(ids.has((book.series as { id: string }).id)).toBe(true);
    expect(books.some((b) => b.title === '红楼梦')).toBe(true);
  });
});
