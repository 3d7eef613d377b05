import type { FastifyRequest } from 'fastify';
import { readCallback, readFields, readPaging } from './query-params';

const req = (query: Record<string, unknown>) => ({ query }) as unknown as FastifyRequest;

describe('query parameters (docs/api/README.md)', () => {
  it.each([
    [{}, { kind: 'none' }],
    [{ callback: 'cb_1' }, { kind: 'valid', name: 'cb_1' }],
    [{ callback: '' }, { kind: 'invalid' }],
    [{ callback: 'a'.repeat(51) }, { kind: 'invalid' }],
    [{ callback: 'a.b' }, { kind: 'invalid' }],
    [{ callback: ['a', 'b'] }, { kind: 'invalid' }],
  ])('callback %j', (query, expected) => {
    expect(readCallback(req(query))).toEqual(expected);
  });

  it('parses paging with defaults and cuts count to the maximum', () => {
    const paging = { defaultCount: 20, maxCount: 100 };
    expect(readPaging(req({}), paging)).toEqual({ start: 0, count: 20 });
    expect(readPaging(req({ start: '5', count: '1000' }), paging)).toEqual({ start: 5, count: 100 });
    expect(readPaging(req({ start: '', count: '' }), paging)).toEqual({ start: 0, count: 20 });
    expect(readPaging(req({ count: '0' }), paging)).toEqual({ start: 0, count: 0 });
    // any number of digits is a non-negative integer
    expect(readPaging(req({ start: '0000000000007', count: '10000000000000000000000' }), paging)).toEqual({ start: 7, count: 100 });
    expect(readPaging(req({ start: '9'.repeat(400) }), paging)).toEqual({ start: 999_999_999, count: 20 });
  });

  it.each([['-1'], ['1.5'], ['abc'], ['1e3'], [' 2']])('rejects start=%s with 1016', (start) => {
    expect(() => readPaging(req({ start }), { defaultCount: 20, maxCount: 100 })).toThrow(expect.objectContaining({ code: 1016 }));
  });

  it('parses fields: blanks ignored, empty or all filters nothing', () => {
    expect(readFields(req({ fields: ' id , title ,' }))).toEqual(new Set(['id', 'title']));
    expect(readFields(req({ fields: '' }))).toBeUndefined();
    expect(readFields(req({ fields: 'all' }))).toBeUndefined();
    expect(readFields(req({}))).toBeUndefined();
  });
});
