import { TermIndex } from './term-index';

describe('TermIndex', () => {
  const index = () => {
    const i = new TermIndex();
    i.put('1', ['春天', '天的', 'spring']);
    i.put('2', ['春天', 'story']);
    i.put('3', ['spring', 'story']);
    return i;
  };

  it('finds the ids that carry every term', () => {
    expect(index().lookup(['春天']).sort()).toEqual(['1', '2']);
    expect(index().lookup(['春天', 'spring'])).toEqual(['1']);
    expect(index().lookup(['spring', 'nothing'])).toEqual([]);
    expect(index().lookup([]).sort()).toEqual(['1', '2', '3']);
  });

  it('replaces the terms of an id that is put again, and forgets a removed one', () => {
    const i = index();
    i.put('1', ['autumn']);
    expect(i.lookup(['春天'])).toEqual(['2']);
    expect(i.lookup(['autumn'])).toEqual(['1']);
    i.remove('2');
    expect(i.lookup(['春天'])).toEqual([]);
    expect(i.lookup(['story'])).toEqual(['3']);
    expect(i.size).toBe(2);
  });

  it('keeps an id put again with the same terms, and still takes a change after it', () => {
    const i = index();
    i.put('1', ['春天', '天的', 'spring', 'spring']);
    expect(i.lookup(['spring']).sort()).toEqual(['1', '3']);
    i.put('1', ['春天', 'spring']);
    expect(i.lookup(['天的'])).toEqual([]);
    expect(i.lookup(['春天', 'spring'])).toEqual(['1']);
  });
});
