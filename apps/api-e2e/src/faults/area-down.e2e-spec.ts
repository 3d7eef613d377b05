import type { Stack } from '@plaza/stack';
import { join } from 'node:path';
import { runImporter } from '../support/global-setup';
import { passwordGrantRequest, report, startFaultStack, statusCounts, stopPrivateStack, timed, TimedResponse, until } from './fault-support';

const FIXTURES = join(__dirname, '..', '..', 'fixtures');
/** Well under the gateway's request timeout (2 s here): a down area is a fast "no responders". */
const FAST_MS = 1000;

/**
 * One area down, the rest served (docs/OPERATING.md): the movie service stops under load; every
 * other area keeps answering, the gateway's own readiness (what Kubernetes and compose probe)
 * stays 200, movie calls get 503/1101 at once, and movie answers again by itself once it is back.
 */
describe('one area down under load', () => {
  let stack: Stack;
  let token: string;
  beforeAll(async () => {
    stack = await startFaultStack();
    for (const file of ['book.ndjson', 'movie.ndjson', 'event.ndjson', 'note.ndjson']) runImporter(stack, join(FIXTURES, file));
    token = (await timed(stack, 'POST', '/auth2/token', passwordGrantRequest('alice'))).body.access_token as string;
  }, 120_000);
  afterAll(() => stopPrivateStack(stack));

  const probe = async () => (await fetch(`${stack.adminUrl}/ready`)).status;
  /** With a user's token: a user's reads are never answered from the gateway's cache. */
  const movieRead = () => timed(stack, 'GET', '/v2/movie/subject/2600001', { token });
  /** A request of every other area, uncached where the area allows it (a user token skips the cache). */
  const otherAreas = (i: number) => [
    timed(stack, 'GET', '/v2/book/2100001', { token }),
    timed(stack, 'GET', `/v2/book/search`, { query: { q: '活着', x: i } }),
    timed(stack, 'GET', '/v2/note/user_created/1001', { token }),
    timed(stack, 'GET', '/v2/event/60001', { token }),
    timed(stack, 'POST', '/auth2/token', passwordGrantRequest(i % 2 ? 'alice' : 'bob')),
  ];

  it('keeps book, note, event and OAuth answering and the gateway probe ready; movie is 503/1101 fast, then back without a gateway restart', async () => {
    expect((await movieRead()).status).toBe(200);
    let running = true;
    const others: TimedResponse[] = [];
    const probes: number[] = [];
    // steady load on the other areas and the probe for the whole outage
    const load = (async () => {
      for (let i = 0; running; i++) {
        others.push(...(await Promise.all(otherAreas(i))));
        probes.push(await probe());
      }
    })();

    await new Promise((r) => setTimeout(r, 300));
    await stack.app('movie').stop();
    const outage: TimedResponse[] = [];
    for (let i = 0; i < 10; i++) outage.push(await movieRead());
    await new Promise((r) => setTimeout(r, 1500));

    const publicReady = await timed(stack, 'GET', '/ready');
    running = false;
    await load;

    for (const answer of outage) {
      expect({ status: answer.status, code: answer.body.code }).toEqual({ status: 503, code: 1101 });
      expect(answer.ms).toBeLessThan(FAST_MS);
    }
    expect(others.length).toBeGreaterThanOrEqual(10);
    expect(statusCounts(others)).toEqual({ 200: others.length });
    expect(probes.length).toBeGreaterThan(0);
    expect(probes.every((s) => s === 200)).toBe(true);
    // the public /ready (docs/CONFIGURATION.md) still says the whole stack is not there
    expect(publicReady.status).toBe(503);
    expect(publicReady.body.checks.movie).toBe('down');

    await stack.restartApp('movie');
    const backMs = await until('movie answers again', async () => (await movieRead()).status === 200, 30_000);
    report('movie stopped under load', {
      otherAreaAnswers: statusCounts(others), probeAnswers: statusCounts(probes.map((status) => ({ status }))),
      movieDuringOutage: statusCounts(outage), slowestMovieMs: Math.max(...outage.map((a) => a.ms)), movieBackMs: backMs,
    });
  });
});
