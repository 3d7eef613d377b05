import { exactKey, indexTerms, searchRank, tagRank } from '@plaza/search';
import { searchQuery } from '../search/ranked-search';
import { LocalSearchIndex, SearchableDocument, smallest } from './local-search-index';

interface Book extends SearchableDocument {
  summary: string;
}

/** A record titled `title`, with `other` text (an author, say) and tags, rated by `raters`. */
const book = (id: string, title: string, raters = 0, other = '', tags: string[] = []): Book => ({
  _id: id,
  search_terms: indexTerms(title, other),
  title_terms: indexTerms(title),
  title_keys: [exactKey(title)],
  tag_keys: tags,
  search_rank: searchRank(raters, id),
  summary: 'long text the index need not keep',
});

async function* from(docs: Book[], beforeEach?: (doc: Book) => void): AsyncIterable<Book> {
  for (const doc of docs) {
    beforeEach?.(doc);
    yield doc;
  }
}

const all = { start: 0, count: 100, limit: 1000 };
const ids = (index: LocalSearchIndex<Book>, q: string | undefined, tag?: string, window = all) => index.page(searchQuery(q, tag), window).ids;

describe('LocalSearchIndex', () => {
  it('orders an exact title first, then every term in the titles, then anywhere; each by rank', async () => {
    const index = new LocalSearchIndex<Book>();
    await index.ready(() =>
      from([
        book('1', 'Zebrafish Handbook', 10),
        book('2', 'Zebrafish', 1),
        book('3', 'A History of Zebrafish', 900),
        book('4', 'Fish', 5000, 'Zebrafish Author'),
        book('5', 'Other', 0),
      ]),
    );
    expect(ids(index, 'ZEBRAFISH')).toEqual(['2', '3', '1', '4']);
    expect(ids(index, 'zebrafish handbook')).toEqual(['1']);
    expect(ids(index, 'nothing')).toEqual([]);
  });

  it('matches a tag alone, by the tag rank the service gives, or with q', async () => {
    const counts: Record<string, number> = { '1': 3, '2': 8, '3': 8 };
    const index = new LocalSearchIndex<Book>((doc) => doc, (doc) => new Map(doc.tag_keys.map((t) => [t, tagRank(counts[doc._id] ?? 0, searchRank(0, doc._id))])));
    await index.ready(() => from([book('1', '春天', 50, '', ['poetry']), book('2', '夏天', 0, '', ['poetry']), book('3', '春天的诗', 0, '', ['poetry']), book('4', '春天')]));
    expect(ids(index, undefined, 'poetry')).toEqual(['2', '3', '1']);
    expect(ids(index, '春天', 'poetry')).toEqual(['1', '3']);
    expect(ids(index, '春天')).toEqual(['1', '4', '3']);
  });

  it('pages within the window and counts matches up to its limit', async () => {
    const index = new LocalSearchIndex<Book>();
    await index.ready(() => from(Array.from({ length: 30 }, (_, i) => book(String(i + 1), 'vol', i))));
    const first = index.page(searchQuery('vol', undefined), { start: 0, count: 5, limit: 20 });
    expect(first).toEqual({ total: 20, ids: ['30', '29', '28', '27', '26'] });
    expect(index.page(searchQuery('vol', undefined), { start: 18, count: 5, limit: 20 }).ids).toEqual(['12', '11']);
    expect(index.page(searchQuery('vol', undefined), { start: 20, count: 5, limit: 20 })).toEqual({ total: 20, ids: [] });
  });

  it('follows writes and removals after the load', async () => {
    const index = new LocalSearchIndex<Book>();
    await index.ready(() => from([book('1', '春天'), book('2', '春天')]));
    index.put(book('1', '夏天'));
    index.remove('2');
    expect(ids(index, '春天')).toEqual([]);
    expect(ids(index, '夏天')).toEqual(['1']);
    expect(index.size).toBe(1);
  });

  it('moves a record rewritten with the same words by its new rank and tags, and one with other titles to them alone', async () => {
    const index = new LocalSearchIndex<Book>();
    await index.ready(() => from([book('1', 'Zebrafish', 1, '', ['fish']), book('2', 'Zebrafish', 5, '', ['fish'])]));
    expect(ids(index, 'zebrafish')).toEqual(['2', '1']);
    expect(ids(index, undefined, 'fish')).toEqual(['2', '1']);
    // a rating: the same words, more raters, another tag; the tag's order, read before, moves too
    index.put(book('1', 'Zebrafish', 9, '', ['fish', 'science']));
    expect(ids(index, 'zebrafish')).toEqual(['1', '2']);
    expect(ids(index, undefined, 'fish')).toEqual(['1', '2']);
    expect(index.page(searchQuery(undefined, 'fish'), all).total).toBe(2);
    expect(ids(index, undefined, 'science')).toEqual(['1']);
    // a new title: the old one's words and its exact match find it no more
    index.put(book('2', 'Goldfish', 5));
    expect(ids(index, 'zebrafish')).toEqual(['1']);
    expect(ids(index, 'goldfish')).toEqual(['2']);
    expect(ids(index, undefined, 'fish')).toEqual(['1']);
    index.put(book('2', 'Zebrafish Two', 5));
    expect(ids(index, 'zebrafish')).toEqual(['1', '2']);
  });

  it('loads once, and a write during the load wins over what the load read', async () => {
    const index = new LocalSearchIndex<Book>();
    let loads = 0;
    const load = () => {
      loads++;
      // the book is rewritten (new title) while the load is under way
      return from([book('1', 'old')], () => index.put(book('1', 'new')));
    };
    await Promise.all([index.ready(load), index.ready(load)]);
    expect(loads).toBe(1);
    expect(ids(index, 'new')).toEqual(['1']);
    expect(ids(index, 'old')).toEqual([]);
  });

  it('keeps what `keep` asks of each record, current after every write, and says when it has loaded', async () => {
    const index = new LocalSearchIndex<Book, { summary: string }>(undefined, undefined, (doc) => ({ summary: doc.summary }));
    expect(index.loaded).toBe(false);
    await index.ready(() => from([book('1', '春天'), book('2', '夏天')]));
    expect(index.loaded).toBe(true);
    expect(index.kept('1')).toEqual({ summary: 'long text the index need not keep' });
    index.put({ ...book('1', '春天'), summary: 'changed' });
    expect(index.kept('1')).toEqual({ summary: 'changed' });
    index.remove('2');
    expect(index.kept('2')).toBeUndefined();
    // without `keep`, nothing is kept
    const bare = new LocalSearchIndex<Book>();
    bare.put(book('1', '春天'));
    expect(bare.kept('1')).toBeUndefined();
  });

  it('a page of many matches: the first k in the order of a full sort', () => {
    const items = Array.from({ length: 3000 }, (_, i) => ({ id: String(i), tier: (i * 7) % 3, rank: searchRank((i * 7919) % 500, String(i)) }));
    const sorted = [...items].sort((a, b) => a.tier - b.tier || (a.rank < b.rank ? -1 : a.rank > b.rank ? 1 : 0));
    for (const k of [1, 20, 520, 1000]) expect(smallest([...items], k)).toEqual(sorted.slice(0, k));
    expect(smallest(items.slice(0, 5), 20)).toEqual(sorted.filter((x) => Number(x.id) < 5));
    expect(smallest(items, 0)).toEqual([]);
  });

  it('tries the load again after a failure', async () => {
    const index = new LocalSearchIndex<Book>();
    // eslint-disable-next-line require-yield
    const failing = async function* (): AsyncIterable<Book> {
      throw new Error('database not reachable');
    };
    await expect(index.ready(failing)).rejects.toThrow('not reachable');
    expect(index.loaded).toBe(false);
    await index.ready(() => from([book('1', 'x')]));
    expect(index.size).toBe(1);
  });
});
