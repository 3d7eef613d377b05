import type { RecordedAnswer } from '../recorded-answers';
import { replayServer } from './replay';

describe('baseline R (replayed answers)', () => {
  const answer: RecordedAnswer = {
    path: '/v2/movie/subject/2000001',
    headers: { 'content-type': 'application/json; charset=utf-8', etag: '"abc"', 'x-request-id': 'r-1', 'access-control-allow-origin': '*' },
    body: '{"id":"2000001","title":"春天的故事","summary":"…"}',
  };
  const app = replayServer([answer]);
  afterAll(() => app.close());

  it('sends a recorded answer byte for byte, with its headers', async () => {
    const res = await app.inject({ method: 'GET', url: answer.path });
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.equals(Buffer.from(answer.body))).toBe(true);
    expect(res.headers['content-length']).toBe(String(Buffer.byteLength(answer.body)));
    for (const [name, value] of Object.entries(answer.headers)) expect(res.headers[name]).toBe(value);
  });

  it('answers nothing it did not record', async () => {
    expect((await app.inject({ method: 'GET', url: '/v2/movie/subject/2000002' })).statusCode).toBe(404);
  });
});
