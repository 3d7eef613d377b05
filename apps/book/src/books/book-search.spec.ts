import { LocalSearchIndex, searchQuery } from '@plaza/service-kit';
import { BookDocument } from './book.schema';
import { bookSearchFields, bookTagRanks, withoutSearchFields, withSearchFields } from './book-search';
import { tagKey } from './book-view';

const book = (id: string, title: string, raters = 0, extra: Partial<BookDocument> = {}): BookDocument =>
  withSearchFields({
    _id: id, title, origin_title: '', alt_title: '', subtitle: '', author: [], translator: [], publisher: '',
    base_rating: { num: raters, average: 7 }, user_rating: { num: 0, sum: 0 }, base_tags: [], user_tags: {},
    ...extra,
  } as unknown as BookDocument);

/** The order the local engine gives (the MongoDB branch's tiers are checked against the same fields in e2e). */
async function ranked(books: BookDocument[], q: string | undefined, tag?: string): Promise<string[]> {
  const index = new LocalSearchIndex<BookDocument>(bookSearchFields, bookTagRanks);
  await index.ready(async function* () {
    yield* books;
  });
  return index.page(searchQuery(q, tag), { start: 0, count: 100, limit: 1000 }).ids;
}

describe('search ranking fields', () => {
  it('puts the exact title before a more popular longer one', async () => {
    expect(await ranked([book('2', '蝴蝶梦的解析', 5000), book('1', '蝴蝶梦', 10)], '蝴蝶梦')).toEqual(['1', '2']);
  });

  it('orders equally relevant books by raters, then id', async () => {
    expect(await ranked([book('3', 'Volume', 1), book('2', 'Volume', 9), book('1', 'Volume', 1), book('10', 'Volume', 1)], 'volume')).toEqual(['2', '1', '3', '10']);
  });

  it('ranks a title match above an author match', async () => {
    expect(await ranked([book('1', 'Other', 900, { author: ['River'] }), book('2', 'River Bank', 0)], 'river')).toEqual(['2', '1']);
  });

  it('ranks tag searches by how often the book got the tag, users included, and drops zero counts', async () => {
    const rows = [
      book('1', 'a', 0, { base_tags: [{ name: 'Poetry', count: 3 }] }),
      book('2', 'b', 0, { base_tags: [{ name: 'poetry', count: 1 }], user_tags: { [tagKey('poetry')]: 4 } }),
      book('3', 'c', 0, { user_tags: { [tagKey('poetry')]: 0 } }),
    ];
    expect(await ranked(rows, undefined, 'poetry')).toEqual(['2', '1']);
    expect(rows[2].tag_keys).toEqual([]);
  });

  it('matches q anywhere in the titles, authors, translators, publisher and ISBNs, whatever search terms the book held', () => {
    const doc = book('9', '花 间', 0, { subtitle: 'Notes', author: ['Li Bai'], translator: ['Xu'], publisher: 'Zhonghua', isbn13: '9787101000000', search_terms: ['stale'] });
    expect(doc.search_terms).toEqual(expect.arrayContaining(['花', '间', 'notes', 'li', 'bai', 'xu', 'zhonghua', '9787101000000']));
    expect(doc.search_terms).not.toContain('stale');
    expect(withoutSearchFields(doc)).toEqual({ ...doc, search_terms: [], title_terms: [], title_keys: [], tag_keys: [], search_rank: '' });
  });

  it('stores what the order needs: title terms and keys, the rank, the tags in use', () => {
    const doc = book('7', 'Ｚebrafish: A Life', 12, { origin_title: 'Zebrafish', base_tags: [{ name: 'Bio', count: 2 }, { name: 'gone', count: 0 }] });
    expect(doc.title_keys).toEqual(['zebrafish a life', 'zebrafish']);
    expect(doc.title_terms).toEqual(expect.arrayContaining(['zebrafish', 'life']));
    expect(doc.search_rank < book('8', 'x', 11).search_rank).toBe(true);
    expect(doc.tag_keys).toEqual(['bio']);
  });
});
