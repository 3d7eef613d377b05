import { FairTurns, STARTS_PER_CALLER_PER_ROUND } from './fair-turns';

describe('FairTurns (callers take turns starting their admitted requests)', () => {
  it("starts another caller's request in the first round, ahead of a burst queued before it", async () => {
    const turns = new FairTurns();
    const started: string[] = [];
    const waits = [
      ...Array.from({ length: 5 }, (_, i) => turns.turn('user:flooder').then(() => started.push(`flooder-${i}`))),
      turns.turn('user:reader').then(() => started.push('reader')),
    ];
    expect(turns.queued).toBe(6);
    await Promise.all(waits);
    expect(started).toEqual(['flooder-0', 'reader', 'flooder-1', 'flooder-2', 'flooder-3', 'flooder-4']);
    expect(turns.queued).toBe(0);
  });

  it('lets the event loop read new messages between rounds', async () => {
    const turns = new FairTurns(Infinity, 1);
    const started: string[] = [];
    const burst = Array.from({ length: 3 }, (_, i) => turns.turn('a').then(() => started.push(`a${i}`)));
    // arrives after the first round has run, while two of the burst still wait
    await new Promise((resolve) => setImmediate(resolve));
    expect(started).toEqual(['a0']);
    const late = turns.turn('b').then(() => started.push('b'));
    await Promise.all([...burst, late]);
    expect(started).toEqual(['a0', 'a1', 'b', 'a2']);
  });

  it("starts a caller's burst together, up to its share of a round, taking the callers in turn", async () => {
    const turns = new FairTurns();
    const started: string[] = [];
    const burst = Array.from({ length: STARTS_PER_CALLER_PER_ROUND + 2 }, (_, i) => turns.turn('app:reader').then(() => started.push(`a${i}`)));
    const other = Array.from({ length: 2 }, (_, i) => turns.turn('user:other').then(() => started.push(`b${i}`)));
    await new Promise((resolve) => setImmediate(resolve));
    // one round: the two callers alternate, and the burst stops at its share
    expect(started.slice(0, 4)).toEqual(['a0', 'b0', 'a1', 'b1']);
    expect(started).toHaveLength(STARTS_PER_CALLER_PER_ROUND + 2);
    expect(turns.queued).toBe(2);
    // a caller that arrives now starts in the next round, beside the rest of the burst
    const late = turns.turn('user:late').then(() => started.push('late'));
    await Promise.all([...burst, ...other, late]);
    expect(started.slice(-3)).toEqual([`a${STARTS_PER_CALLER_PER_ROUND}`, 'late', `a${STARTS_PER_CALLER_PER_ROUND + 1}`]);
  });

  it("holds a caller's requests beyond its running bound until one of its handlers replies", async () => {
    const turns = new FairTurns(2);
    const started: string[] = [];
    const burst = Array.from({ length: 4 }, (_, i) => turns.turn('user:flooder').then(() => started.push(`f${i}`)));
    const internal = Array.from({ length: 3 }, (_, i) => turns.turn('').then(() => started.push(`i${i}`)));
    await Promise.all(internal);
    for (let i = 0; i < 3; i++) await new Promise((resolve) => setImmediate(resolve));
    // two running; requests without a caller are never held back
    expect(started.filter((s) => s.startsWith('f'))).toEqual(['f0', 'f1']);
    expect(turns.queued).toBe(2);
    turns.done('user:flooder');
    await burst[2];
    expect(started.filter((s) => s.startsWith('f'))).toEqual(['f0', 'f1', 'f2']);
    // a reader is not held back by the flooder's bound
    await turns.turn('user:reader');
    turns.done('user:flooder');
    await Promise.all(burst);
    expect(turns.queued).toBe(0);
  });
});
