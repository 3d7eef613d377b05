import { alternatingRounds } from './loop-rounds';

describe('alternatingRounds', () => {
  it('runs the kinds in turn, a warm-up round first, and gives each kind a time an iteration', async () => {
    const order: string[] = [];
    const kind = (name: string) => async (iterations: number) => {
      order.push(`${name}×${iterations}`);
    };
    const micros = await alternatingRounds({ a: kind('a'), b: kind('b') }, 2, 10);
    // three rounds: the warm-up and the two counted
    expect(order).toEqual(['a×10', 'b×10', 'a×10', 'b×10', 'a×10', 'b×10']);
    expect(Object.keys(micros)).toEqual(['a', 'b']);
    for (const value of Object.values(micros)) expect(value).toBeGreaterThanOrEqual(0);
  });

  it("takes the median of the counted rounds, not the warm-up's", async () => {
    let round = 0;
    // the warm-up round is slow (20 ms), the counted ones quick
    const slowFirst = async () => {
      if (round++ === 0) await new Promise((resolve) => setTimeout(resolve, 20));
    };
    const { only } = await alternatingRounds({ only: slowFirst }, 3, 1);
    expect(only).toBeLessThan(10_000);
  });
});
