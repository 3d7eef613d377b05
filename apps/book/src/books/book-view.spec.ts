import { bookCacheTags, bookRating, mergeTags, tagFromKey, tagKey, tagSearchKey } from './book-view';

describe('book view', () => {
  it('stores any tag under a safe field name and reads it back', () => {
    for (const name of ['小说', 'a.b', '$where', 'with space', '🙂']) {
      const key = tagKey(name);
      expect(key).toMatch(/^t[A-Za-z0-9_-]*$/);
      expect(tagFromKey(key)).toBe(name);
    }
  });

  it('compares tags for search without case or width', () => {
    expect(tagSearchKey(' Ｓｃｉ-Fi ')).toBe('sci-fi');
  });

  it('adds users\' tag counts to the catalogue\'s, biggest first, ties in catalogue order', () => {
    const tags = mergeTags(
      [{ name: '小说', count: 5 }, { name: '经典', count: 3 }, { name: '文学', count: 3 }],
      { [tagKey('经典')]: 1, [tagKey('新')]: 4, [tagKey('旧')]: 0 },
    );
    expect(tags).toEqual([
      { count: 5, name: '小说' },
      { count: 4, name: '经典' },
      { count: 4, name: '新' },
      { count: 3, name: '文学' },
    ]);
  });

  it('shows at most 50 tags', () => {
    const base = Array.from({ length: 70 }, (_, i) => ({ name: `t${i}`, count: 100 - i }));
    expect(mergeTags(base, {})).toHaveLength(50);
  });

  it('averages catalogue and users\' ratings on the 10 scale with one decimal', () => {
    expect(bookRating({ num: 0, average: 0 }, { num: 0, sum: 0 })).toEqual({ max: 10, numRaters: 0, average: '0.0', min: 0 });
    // one user rating 4 (= 8 of 10)
    expect(bookRating({ num: 0, average: 0 }, { num: 1, sum: 8 }).average).toBe('8.0');
    // 10 raters at 6.0 plus users rating 5 and 3 (10 + 6): (60 + 16) / 12 = 6.33
    expect(bookRating({ num: 10, average: 6 }, { num: 2, sum: 16 })).toEqual({ max: 10, numRaters: 12, average: '6.3', min: 0 });
  });

  it('tags a book\'s cached answers by id, both ISBNs and series', () => {
    expect(bookCacheTags({ _id: '1', isbn10: '7506365437', isbn13: '9787506365437', series: { id: '9', title: 's' } })).toEqual([
      'book:1', 'isbn:9787506365437', 'isbn:7506365437', 'series:9',
    ]);
    expect(bookCacheTags({ _id: '1', isbn10: '', isbn13: '' })).toEqual(['book:1']);
  });
});
