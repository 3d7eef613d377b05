import { indexTerms, queryTerms, relevance } from './terms';

describe('search terms', () => {
  it('finds a Chinese word inside a Chinese title without a dictionary', () => {
    const doc = new Set(indexTerms('春天的故事'));
    for (const q of ['故事', '春天', '天的故', '春']) expect(queryTerms(q).every((t) => doc.has(t))).toBe(true);
    expect(queryTerms('秋天').every((t) => doc.has(t))).toBe(false);
  });

  it('indexes English words case-insensitively, full-width letters included', () => {
    const doc = new Set(indexTerms('Harry Potter and the Philosopher’s Stone'));
    expect(queryTerms('HARRY stone').every((t) => doc.has(t))).toBe(true);
    expect(queryTerms('Ｈａｒｒｙ')).toEqual(['harry']);
  });

  it('splits mixed text into CJK and word runs', () => {
    expect(indexTerms('三体II黑暗森林')).toEqual(expect.arrayContaining(['三体', 'ii', '黑暗', '森林', '暗森']));
  });

  it('never produces operators or patterns from hostile input', () => {
    expect(queryTerms('{"$ne": null} .* ^(a+)+$ [a-z]')).toEqual(['ne', 'null', 'a', 'z']);
    expect(queryTerms('$where: sleep(1000)')).toEqual(['where', 'sleep', '1000']);
    expect(queryTerms('...***')).toEqual([]);
  });

  it('caps the number of query terms', () => {
    expect(queryTerms(Array.from({ length: 40 }, (_, i) => `w${i}`).join(' '))).toHaveLength(16);
  });

  it('ranks an exact title above a summary mention', () => {
    const exact = relevance('故事', [{ text: '故事', weight: 3 }, { text: '', weight: 1 }]);
    const inSummary = relevance('故事', [{ text: '城市', weight: 3 }, { text: '一个故事', weight: 1 }]);
    expect(exact).toBeGreaterThan(inSummary);
  });
});
