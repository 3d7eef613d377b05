import { replayServer } from './baselines/replay';
import { answerStats, RecordedAnswer, recordAnswers } from './recorded-answers';

describe('recording answers for baseline R', () => {
  const answers: RecordedAnswer[] = [
    {
      path: '/v2/movie/subject/2000001',
      headers: { 'content-type': 'application/json; charset=utf-8', etag: '"abc"', 'x-request-id': 'r-1', 'access-control-allow-origin': '*' },
      body: '{"id":"2000001","title":"春天的故事"}',
    },
  ];
  const server = replayServer(answers);
  let baseUrl: string;
  beforeAll(async () => {
    baseUrl = await server.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(() => server.close());

  it('keeps the body and every header but those Node writes itself, so a replay of a recording is the recording', async () => {
    expect(await recordAnswers(baseUrl, [answers[0].path], 'token')).toEqual(answers);
  });

  it('refuses to record an answer that is not a 200', async () => {
    await expect(recordAnswers(baseUrl, ['/v2/movie/subject/2000002'], 'token')).rejects.toThrow('recording /v2/movie/subject/2000002: 404');
  });

  it('gives the mean size in bytes and the share of them outside ASCII', () => {
    // `{"t":"` and `"}` are 8 ASCII bytes, 春 is 3 bytes of UTF-8; `{}` is 2
    expect(answerStats([{ path: '/a', headers: {}, body: '{"t":"春"}' }, { path: '/b', headers: {}, body: '{}' }])).toEqual({ bytes: 6.5, nonAscii: 3 / 13 });
  });
});
