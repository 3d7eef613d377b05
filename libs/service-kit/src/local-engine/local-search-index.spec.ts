import { LocalSearchIndex } from './local-search-index';

interface Book {
  _id: string;
  title: string;
  search_terms: string[];
  tag_keys: string[];
  summary: string;
}

const book = (id: string, terms: string[], tags: string[] = []): Book => ({ _id: id, title: `t${id}`, search_terms: terms, tag_keys: tags, summary: 'long text the index need not keep' });
const cardOf = (b: Book) => ({ _id: b._id, title: b.title });
const newIndex = () => new LocalSearchIndex<Book, { _id: string; title: string }>(cardOf);

async function* from(docs: Book[], beforeEach?: (doc: Book) => void): AsyncIterable<Book> {
  for (const doc of docs) {
    beforeEach?.(doc);
    yield doc;
  }
}

describe('LocalSearchIndex', () => {
  it('finds books carrying every term and the tag, keeping only what ranking reads', async () => {
    const index = newIndex();
    await index.ready(() => from([book('1', ['春天', 'spring'], ['小说']), book('2', ['春天'], ['诗歌']), book('3', ['spring'])]));
    expect(index.matching(['春天'], undefined).map((c) => c._id).sort()).toEqual(['1', '2']);
    expect(index.matching(['春天', 'spring'], undefined).map((c) => c._id)).toEqual(['1']);
    expect(index.matching([], '诗歌').map((c) => c._id)).toEqual(['2']);
    expect(index.matching(['spring'], '诗歌')).toEqual([]);
    expect(index.matching(['春天'], undefined)[0]).not.toHaveProperty('summary');
  });

  it('follows writes and removals after the load', async () => {
    const index = newIndex();
    await index.ready(() => from([book('1', ['春天']), book('2', ['春天'])]));
    index.put(book('1', ['夏天']));
    index.remove('2');
    expect(index.matching(['春天'], undefined)).toEqual([]);
    expect(index.matching(['夏天'], undefined).map((c) => c._id)).toEqual(['1']);
    expect(index.size).toBe(1);
  });

  it('loads once, and a write during the load wins over what the load read', async () => {
    const index = newIndex();
    let loads = 0;
    const all = () => {
      loads++;
      // the book is rewritten (new terms) while the load is under way
      return from([book('1', ['old'])], () => index.put(book('1', ['new'])));
    };
    await Promise.all([index.ready(all), index.ready(all)]);
    expect(loads).toBe(1);
    expect(index.matching(['new'], undefined).map((c) => c._id)).toEqual(['1']);
    expect(index.matching(['old'], undefined)).toEqual([]);
  });

  it('tries the load again after a failure', async () => {
    const index = newIndex();
    // eslint-disable-next-line require-yield
    const failing = async function* (): AsyncIterable<Book> {
      throw new Error('database not reachable');
    };
    await expect(index.ready(failing)).rejects.toThrow('not reachable');
    await index.ready(() => from([book('1', ['x'])]));
    expect(index.size).toBe(1);
  });
});
