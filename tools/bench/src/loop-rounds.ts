import { median } from './load';

/**
 * The loop measures' procedure (`message-validation.ts`, `access-log.ts`): each kind runs
 * `perRound` iterations a round, the kinds alternating round by round so the machine's slow
 * moments fall on all of them; a first round warms the code up and is not counted. Returns each
 * kind's median over `rounds` rounds, in µs an iteration.
 */
export async function alternatingRounds<K extends string>(
  kinds: Record<K, (iterations: number) => void | Promise<void>>,
  rounds: number,
  perRound: number,
): Promise<Record<K, number>> {
  const entries = Object.entries(kinds) as Array<[K, (iterations: number) => void | Promise<void>]>;
  const micros = new Map<K, number[]>(entries.map(([kind]) => [kind, []]));
  for (let round = 0; round <= rounds; round++) {
    for (const [kind, run] of entries) {
      const started = process.hrtime.bigint();
      await run(perRound);
      if (round > 0) micros.get(kind)!.push(Number(process.hrtime.bigint() - started) / perRound / 1000);
    }
  }
  return Object.fromEntries(entries.map(([kind]) => [kind, median(micros.get(kind)!)])) as Record<K, number>;
}
