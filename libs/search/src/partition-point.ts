/**
 * In a sorted sequence of `length` items, the first index whose item is not `before` the one
 * sought (`before` holds for a prefix of the sequence and for nothing after it): where that item
 * goes in order. A binary search.
 */
export function partitionPoint(length: number, before: (index: number) => boolean): number {
  let lo = 0;
  let hi = length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (before(mid)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
