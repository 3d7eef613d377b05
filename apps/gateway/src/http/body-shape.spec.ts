import { checkBodyShape, MAX_BODY_DEPTH, MAX_BODY_FIELDS } from './body-shape';

const nested = (depth: number): unknown => {
  let value: unknown = 'leaf';
  for (let i = 0; i < depth; i++) value = [value];
  return value;
};

describe('checkBodyShape', () => {
  it('accepts the bodies the API takes', () => {
    expect(() => checkBodyShape({ title: 't', content: 'c', tags: ['a', 'b'], rating: 5 })).not.toThrow();
    expect(() => checkBodyShape(undefined)).not.toThrow();
    expect(() => checkBodyShape('text')).not.toThrow();
    expect(() => checkBodyShape(Object.fromEntries(Array.from({ length: MAX_BODY_FIELDS }, (_, i) => [`k${i}`, 'v'])))).not.toThrow();
    expect(() => checkBodyShape(nested(MAX_BODY_DEPTH - 1))).not.toThrow();
  });

  it('rejects too many fields with 413/1103', () => {
    const body = Object.fromEntries(Array.from({ length: MAX_BODY_FIELDS + 1 }, (_, i) => [`k${i}`, 'v']));
    expect(() => checkBodyShape(body)).toThrow(expect.objectContaining({ status: 413, code: 1103 }));
    expect(() => checkBodyShape(new Array(MAX_BODY_FIELDS + 1).fill(1))).toThrow(expect.objectContaining({ code: 1103 }));
  });

  it('rejects deep nesting with 400/1016, without recursion', () => {
    expect(() => checkBodyShape(nested(MAX_BODY_DEPTH + 1))).toThrow(expect.objectContaining({ status: 400, code: 1016 }));
    expect(() => checkBodyShape({ a: nested(100_000) })).toThrow(expect.objectContaining({ code: 1016 }));
  });
});
