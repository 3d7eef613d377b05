import { jsonBytesAtMost, withinPageBudget } from './reply-budget';

describe('withinPageBudget', () => {
  const item = (chars: number) => ({ content: '春'.repeat(chars) }); // 3 bytes a character

  it('keeps a page that fits whole', () => {
    const page = [item(10), item(10)];
    expect(withinPageBudget(page, 1000)).toBe(page);
  });

  it('cuts the page before the item that passes the budget, counting bytes, not characters', () => {
    const page = [item(100), item(100), item(100)]; // ~315 bytes each as JSON
    expect(withinPageBudget(page, 700)).toEqual([item(100), item(100)]);
  });

  it('always keeps the first item, however large', () => {
    expect(withinPageBudget([item(1000), item(1)], 10)).toEqual([item(1000)]);
  });

  it('keeps an empty page empty', () => {
    expect(withinPageBudget([], 10)).toEqual([]);
  });

  it('cuts a page of dates by their JSON, which no bound without encoding can see', () => {
    const page = [{ at: new Date(0) }, { at: new Date(0) }];
    expect(withinPageBudget(page, 40)).toEqual([{ at: new Date(0) }]);
  });
});

describe('jsonBytesAtMost', () => {
  it.each([
    ['escapes', { a: '\u0001"\\', b: [1, null, true, -1.5e-300], 'ключ': { nested: ['春', ''] } }],
    ['a page of entries', Array.from({ length: 20 }, (_, i) => ({ id: i, title: `第 ${i} 章`, tags: ['a', 'b'], rating: { value: '4', max: 5 } }))],
  ])('is never under the JSON it bounds (%s)', (_, value) => {
    expect(jsonBytesAtMost(value)).toBeGreaterThanOrEqual(Buffer.byteLength(JSON.stringify(value)));
  });
});
