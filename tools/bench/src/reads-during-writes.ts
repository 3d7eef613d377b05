import { moved, scrape, series } from '@plaza/stack';
import { LoadOptions, RoundResult, runRound, Target } from './load';

export interface ReadsDuringWrites {
  /** Second reads of books the writes left alone, and how many the response cache answered. */
  secondReads: number;
  hits: number;
  /** Whether the writes were still running when the second reads ended. */
  writesOutlastedReads: boolean;
  writes: RoundResult;
}

/** The gateway's response-cache counter of `event` (hit, miss) on its admin port's /metrics. */
const cacheEvents = (event: 'hit' | 'miss') => series('plaza_response_cache_events_total', { event, service: 'gateway' });

/**
 * While `writes` run (invalidating the books they write), reads each of `books` (which they leave
 * alone) twice with an app token: the first read fills the response cache, the second should be
 * answered by it. A write elsewhere must not keep an answer out of the cache
 * (docs/ARCHITECTURE.md, "Request lifecycle", step 7).
 */
export async function readsDuringWrites(
  baseUrl: string, adminUrl: string, writes: Target, books: string[], token: string, load: LoadOptions,
): Promise<ReadsDuringWrites> {
  let writing = true;
  const writeRound = runRound(baseUrl, writes, load).finally(() => (writing = false));
  // the writes at full pace before the first read
  await new Promise((r) => setTimeout(r, 500));
  const pass = async () => {
    let next = 0;
    await Promise.all(Array.from({ length: 8 }, async () => {
      while (next < books.length) {
        const res = await fetch(`${baseUrl}/v2/book/${books[next++]}`, { headers: { authorization: `Bearer ${token}` } });
        await res.arrayBuffer();
        if (res.status !== 200) throw new Error(`a read during the writes answered ${res.status}`);
      }
    }));
  };
  await pass();
  const before = await scrape(`${adminUrl}/metrics`);
  await pass();
  const after = await scrape(`${adminUrl}/metrics`);
  const writesOutlastedReads = writing;
  const hits = moved(before, after, cacheEvents('hit'));
  return { secondReads: hits + moved(before, after, cacheEvents('miss')), hits, writesOutlastedReads, writes: await writeRound };
}
