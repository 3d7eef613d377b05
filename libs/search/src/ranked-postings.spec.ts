import { RankedPostings } from './ranked-postings';

describe('RankedPostings', () => {
  const ranks = (entries: Record<string, string>) => new Map(Object.entries(entries));

  it('gives the first ids of a key in rank order, and how many it holds', () => {
    const p = new RankedPostings();
    p.put('a', ranks({ fiction: '3', poetry: '1' }));
    p.put('b', ranks({ fiction: '1' }));
    p.put('c', ranks({ fiction: '2', poetry: '2' }));
    expect(p.first('fiction', 10)).toEqual(['b', 'c', 'a']);
    expect(p.first('fiction', 2)).toEqual(['b', 'c']);
    expect(p.first('poetry', 10)).toEqual(['a', 'c']);
    expect(p.count('fiction')).toBe(3);
    expect(p.count('none')).toBe(0);
    expect(p.holds('poetry', 'c')).toBe(true);
    expect(p.holds('poetry', 'b')).toBe(false);
    expect(p.first('none', 5)).toEqual([]);
    expect(p.first('fiction', 0)).toEqual([]);
  });

  it('moves an id whose rank changes, after the order was read as well as before', () => {
    for (const readFirst of [true, false]) {
      const p = new RankedPostings();
      p.put('a', ranks({ t: '1' }));
      p.put('b', ranks({ t: '2' }));
      p.put('c', ranks({ t: '3' }));
      if (readFirst) expect(p.first('t', 3)).toEqual(['a', 'b', 'c']);
      p.put('a', ranks({ t: '4' }));
      p.put('c', ranks({ t: '0' }));
      expect(p.first('t', 3)).toEqual(['c', 'b', 'a']);
      expect(p.count('t')).toBe(3);
    }
  });

  it('takes an id out of the keys it loses and out of every key when removed', () => {
    const p = new RankedPostings();
    p.put('a', ranks({ x: '1', y: '1' }));
    p.put('b', ranks({ x: '2', y: '2' }));
    expect(p.first('x', 5)).toEqual(['a', 'b']);
    p.put('a', ranks({ y: '1', z: '1' }));
    expect(p.first('x', 5)).toEqual(['b']);
    expect(p.first('z', 5)).toEqual(['a']);
    p.remove('b');
    expect(p.first('x', 5)).toEqual([]);
    expect(p.count('x')).toBe(0);
    expect(p.first('y', 5)).toEqual(['a']);
    p.put('a', new Map());
    expect(p.count('y')).toBe(0);
    expect(p.count('z')).toBe(0);
  });

  it('stays in the order a full sort gives through many random changes', () => {
    const p = new RankedPostings();
    const held = new Map<string, Map<string, string>>();
    let seed = 7;
    const random = (n: number) => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n;
    for (let step = 0; step < 3000; step++) {
      const id = `id${random(200)}`;
      if (step === 500) p.first('k0', 1); // from here on, each change moves one id in a sorted order
      if (random(10) === 0) {
        p.remove(id);
        held.delete(id);
        continue;
      }
      const keys = new Map<string, string>();
      for (let k = 0; k < 3; k++) keys.set(`k${random(5)}`, `${String(random(1000)).padStart(4, '0')}|${id}`);
      p.put(id, keys);
      held.set(id, keys);
    }
    for (let k = 0; k < 5; k++) {
      const key = `k${k}`;
      const expected = [...held].filter(([, r]) => r.has(key)).sort(([, a], [, b]) => ((a.get(key) as string) < (b.get(key) as string) ? -1 : 1)).map(([id]) => id);
      expect(p.first(key, 1000)).toEqual(expected);
      expect(p.count(key)).toBe(expected.length);
    }
  });
});
