import { partitionPoint } from './partition-point';

describe('partitionPoint', () => {
  it('finds where an item goes in a sorted sequence: before equal items, or after them', () => {
    const xs = [1, 3, 3, 5];
    expect(partitionPoint(xs.length, (i) => xs[i] < 3)).toBe(1);
    expect(partitionPoint(xs.length, (i) => xs[i] <= 3)).toBe(3);
    expect(partitionPoint(xs.length, (i) => xs[i] < 0)).toBe(0);
    expect(partitionPoint(xs.length, (i) => xs[i] < 9)).toBe(4);
    expect(partitionPoint(0, () => true)).toBe(0);
  });
});
