import { connect } from 'node:net';
import { tokenFor } from '../support/auth';
import { crowd } from '../support/fixtures';
import { api, expectError, expectStatus, get, post } from '../support/http';
import { importRecords } from '../support/import';
import { stackInfo } from '../support/stack-info';

/**
 * Clients that send `Content-Type: application/json` on every request, bodiless writes included
 * (docs/DECISIONS.md, "An empty body with any declared type is an empty body"): a like, an
 * unlike, a note's deletion, joining, leaving, wishing and unwishing an event answer as they do
 * without the header, and so does an empty body streamed chunked (no Content-Length).
 */
const json = (token: string) => ({ token, headers: { 'content-type': 'application/json' } });

/** An event and a city of this suite's own (8 930 000s), so no other suite's counts move. */
const CITY = '893001';
const EVENT = '8930001';

/**
 * A write whose body is sent chunked and empty: `0\r\n\r\n`, the last chunk and no other. Raw
 * bytes, for what a client library sends is not in the test's hands; the socket is not half-closed
 * after them (Node's server would drop an answer that takes a NATS round trip), and
 * `Connection: close` ends it once the answer is sent.
 */
function chunkedEmpty(method: string, path: string, token: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const { hostname, port } = new URL(stackInfo().baseUrl);
  const head = `${method} ${path} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n`;
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(`${head}0\r\n\r\n`));
    const chunks: Buffer[] = [];
    socket.setTimeout(10_000, () => socket.destroy(new Error('no answer in time')));
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const [answerHead, ...rest] = Buffer.concat(chunks).toString('utf8').split('\r\n\r\n');
      try {
        resolve({ status: Number(answerHead.split(' ')[1]), body: JSON.parse(rest.join('\r\n\r\n')) });
      } catch {
        reject(new Error(`not a JSON answer: ${Buffer.concat(chunks).toString('utf8')}`));
      }
    });
  });
}

describe('bodiless writes with a declared JSON body type', () => {
  let writer: string;
  let reader: string;

  beforeAll(async () => {
    const run = importRecords([
      { kind: 'loc', id: CITY, uid: 'empty-bodies-city', name: '空体城', parent: 'china' },
      { kind: 'event', id: EVENT, title: '空体聚会', category: 'party', begin_time: '2099-06-01 19:00:00', end_time: '2099-06-01 22:00:00', loc_id: CITY, owner: { id: crowd(181).id } },
    ]);
    expect(run.status).toBe(0);
    [writer, reader] = await Promise.all([tokenFor(crowd(181)), tokenFor(crowd(182))]);
  }, 60_000);

  it('likes, unlikes and deletes a note', async () => {
    const note = await post('/v2/notes', { token: writer, form: { title: 'Typed', content: 'always typed' } });
    expect(note.status).toBe(201);
    const id = note.body.id as string;
    const liked = await api('POST', `/v2/note/${id}/like`, json(reader));
    expect({ status: liked.status, liked_count: liked.body.liked_count }).toEqual({ status: 202, liked_count: 1 });
    const unliked = await api('DELETE', `/v2/note/${id}/like`, json(reader));
    expect({ status: unliked.status, liked_count: unliked.body.liked_count }).toEqual({ status: 202, liked_count: 0 });
    const deleted = await api('DELETE', `/v2/note/${id}`, json(writer));
    expect(deleted.status).toBeLessThan(300);
    // a missing note is 400/1006 (docs/api/note.md)
    expectError(await get(`/v2/note/${id}`, { token: writer }), 400, 1006);
  });

  it('joins, leaves, wishes and unwishes an event: 202 with the counters after each (docs/api/event.md)', async () => {
    const write = async (method: string, what: 'participants' | 'wishers') => {
      const res = await api(method, `/v2/event/${EVENT}/${what}`, json(reader));
      return { status: res.status, counts: [res.body.participant_count, res.body.wisher_count] };
    };
    expect(await write('POST', 'participants')).toEqual({ status: 202, counts: [1, 0] });
    expect(await write('POST', 'wishers')).toEqual({ status: 202, counts: [1, 1] });
    expect(await write('DELETE', 'participants')).toEqual({ status: 202, counts: [0, 1] });
    expect(await write('DELETE', 'wishers')).toEqual({ status: 202, counts: [0, 0] });
  });

  it('an empty body sent chunked is an empty body too (before: the JSON parser\'s 400/1016)', async () => {
    const joined = await chunkedEmpty('POST', `/v2/event/${EVENT}/participants`, writer);
    expect({ status: joined.status, participant_count: joined.body.participant_count }).toEqual({ status: 202, participant_count: 1 });
    const left = await chunkedEmpty('DELETE', `/v2/event/${EVENT}/participants`, writer);
    expect({ status: left.status, participant_count: left.body.participant_count }).toEqual({ status: 202, participant_count: 0 });

    const note = await post('/v2/notes', { token: writer, form: { title: 'Streamed', content: 'an empty stream' } });
    expectStatus(note, 201);
    const liked = await chunkedEmpty('POST', `/v2/note/${note.body.id}/like`, reader);
    expect({ status: liked.status, liked_count: liked.body.liked_count }).toEqual({ status: 202, liked_count: 1 });
  });
});
