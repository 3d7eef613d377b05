import { FairShareCounters } from './fair-share';

describe('FairShareCounters', () => {
  it('allows `limit` requests a window per key, then refuses until the window turns', () => {
    const counters = new FairShareCounters();
    const at = 60_000 * 1000 + 15_000;
    expect([1, 2, 3].map(() => counters.take('user:1', 2, 60, at).allowed)).toEqual([true, true, false]);
    expect(counters.take('user:1', 2, 60, at)).toEqual({ limit: 2, remaining: 0, resetSeconds: 45, allowed: false });
    expect(counters.take('user:2', 2, 60, at).allowed).toBe(true);
    expect(counters.take('user:1', 2, 60, at + 45_000)).toEqual({ limit: 2, remaining: 1, resetSeconds: 60, allowed: true });
  });

  it("turns at the clock's minute: a burst across the turn meets two windows (docs/DECISIONS.md, \"Limits\")", () => {
    const counters = new FairShareCounters();
    const turn = 60_000 * 1000;
    expect([1, 2, 3].map(() => counters.take('auth:203.0.113.7', 2, 60, turn - 100).allowed)).toEqual([true, true, false]);
    expect([1, 2, 3].map(() => counters.take('auth:203.0.113.7', 2, 60, turn).allowed)).toEqual([true, true, false]);
  });

  it('tells a spent window without counting a request', () => {
    const counters = new FairShareCounters();
    const at = 60_000 * 1000 + 15_000;
    expect(counters.spent('user:1', 2, 60, at)).toBeUndefined();
    counters.take('user:1', 2, 60, at);
    expect(counters.spent('user:1', 2, 60, at)).toBeUndefined();
    counters.take('user:1', 2, 60, at);
    expect(counters.spent('user:1', 2, 60, at)).toEqual({ limit: 2, remaining: 0, resetSeconds: 45, allowed: false });
    expect(counters.spent('user:1', 2, 60, at + 45_000)).toBeUndefined();
  });

  it('forgets the least recently seen callers beyond its bound', () => {
    const counters = new FairShareCounters(2);
    counters.take('a', 1, 60, 0);
    counters.take('b', 1, 60, 0);
    counters.take('c', 1, 60, 0);
    expect(counters.take('a', 1, 60, 0).allowed).toBe(true);
  });
});
