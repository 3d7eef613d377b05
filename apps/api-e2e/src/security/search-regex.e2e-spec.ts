import { get } from '../support/http';
import { timed } from './security-support';

/**
 * Regular-expression metacharacters in book and movie search (docs/DECISIONS.md, "Hostile input"): searches
 * go through search terms, never a regex built from input (docs/DEVELOPING.md), so every
 * pattern below is text — quick, and matching nothing, where a pattern would match everything
 * (`.*`) or backtrack for seconds (`(a+)+$`, `(.*a){20}`).
 */
/** Patterns with no letter or digit: as text they name no word, as a regex they match everything. */
const SYMBOLS = ['.*', '.+', '^', '$', '^.*$', '[', ']', '(', ')', '\\', '*', '+', '?', '|', '{1,1000}', '(?:)', '[^]*', '.*.*.*.*.*.*.*.*$'];
/** Patterns with letters: as text they are their words, as a regex some backtrack for seconds. */
const WORDY = ['[a-z]+', '\\d+', '(?=a)', '(.*a){20}', '((a+)+)+$', '(\\w+\\s?)*$', `${'(a|a)'.repeat(12)}$`];
const wordsOf = (pattern: string) => (pattern.match(/[A-Za-z0-9]+/g) ?? []).join(' ');
/** Well within a search's usual time on the loaded test machine; a backtracking regex takes seconds. */
const QUICK_MS = 2500;

describe.each([
  ['book', '/v2/book/search', 'books'],
  ['movie', '/v2/movie/search', 'subjects'],
])('%s search', (_, path, listKey) => {
  const search = (q: string) => timed(() => get(path, { query: { q } }));
  const ids = (body: Record<string, Array<{ id: string }>>) => body[listKey].map((item) => item.id);

  it.each(SYMBOLS)('q=%j is text: nothing matches, quickly', async (q) => {
    const { ms, res } = await search(q);
    expect(res.status).toBe(200);
    expect({ total: res.body.total, list: res.body[listKey] }).toEqual({ total: 0, list: [] });
    expect(ms).toBeLessThan(QUICK_MS);
    if (listKey === 'subjects') expect(res.body.query).toBe(q);
  });

  it.each(WORDY)('q=%j is text: it finds what its words find, quickly', async (q) => {
    const { ms, res } = await search(q);
    expect(res.status).toBe(200);
    expect(ms).toBeLessThan(QUICK_MS);
    expect(ids(res.body)).toEqual(ids((await search(wordsOf(q))).res.body));
  });

  it.each(['.*', '[', '\\', '(a+)+$'])('tag=%j is text too', async (tag) => {
    const res = await get(path, { query: { tag } });
    expect(res.status).toBe(200);
    expect(res.body.total).toBe(0);
  });

  it('a long run of one letter then a mismatch (the input that makes (a+)+$ backtrack) is answered quickly', async () => {
    const { ms, res } = await timed(() => get(path, { query: { q: `${'a'.repeat(40)}!` } }));
    expect(res.status).toBe(200);
    expect(ms).toBeLessThan(QUICK_MS);
  });
});

describe('metacharacters inside words are matched literally', () => {
  it('finds the book whose title has them, by its words, and not by a pattern that would match it', async () => {
    // fixture 2110009: "Regex (Meta) Characters.* [Test] $ne"
    const ids = async (q: string) => (await get('/v2/book/search', { query: { q } })).body.books.map((b: { id: string }) => b.id);
    expect(await ids('Regex (Meta)')).toEqual(['2110009']);
    expect(await ids('$ne')).toEqual(['2110009']);
    expect(await ids('R.g.x')).toEqual([]);
    expect(await ids('Reg[e]x')).toEqual([]);
  });
});
