import { BookDocument } from './book.schema';
import { rankBooks } from './book-search';
import { tagKey } from './book-view';

const book = (id: string, title: string, raters = 0, extra: Partial<BookDocument> = {}): BookDocument =>
  ({
    _id: id, title, origin_title: '', alt_title: '', subtitle: '', author: [], translator: [], publisher: '',
    base_rating: { num: raters, average: 7 }, user_rating: { num: 0, sum: 0 }, base_tags: [], user_tags: {},
    ...extra,
  }) as unknown as BookDocument;

describe('search ranking', () => {
  it('puts the exact title before a more popular longer one', () => {
    const ranked = rankBooks([book('2', '蝴蝶梦的解析', 5000), book('1', '蝴蝶梦', 10)], '蝴蝶梦', undefined);
    expect(ranked.map((b) => b._id)).toEqual(['1', '2']);
  });

  it('orders equally relevant books by raters, then id', () => {
    const ranked = rankBooks([book('3', 'Volume', 1), book('2', 'Volume', 9), book('1', 'Volume', 1)], 'volume', undefined);
    expect(ranked.map((b) => b._id)).toEqual(['2', '1', '3']);
  });

  it('ranks a title match above an author match', () => {
    const ranked = rankBooks([book('1', 'Other', 0, { author: ['River'] }), book('2', 'River', 0)], 'river', undefined);
    expect(ranked.map((b) => b._id)).toEqual(['2', '1']);
  });

  it('ranks tag searches by how often the book got the tag, users included, and drops zero counts', () => {
    const rows = [
      book('1', 'a', 0, { base_tags: [{ name: 'Poetry', count: 3 }] }),
      book('2', 'b', 0, { base_tags: [{ name: 'poetry', count: 1 }], user_tags: { [tagKey('poetry')]: 4 } }),
      book('3', 'c', 0, { user_tags: { [tagKey('poetry')]: 0 } }),
    ];
    expect(rankBooks(rows, undefined, 'POETRY').map((b) => b._id)).toEqual(['2', '1']);
  });
});
