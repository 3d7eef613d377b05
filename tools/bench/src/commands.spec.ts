import { parseMetrics } from '@plaza/stack';
import { CommandMeter, commandsText } from './commands';

const text = (books: number, entries: number) => [
  '# TYPE plaza_mongodb_command_duration_seconds histogram',
  `plaza_mongodb_command_duration_seconds_bucket{le="0.001",collection="books",command="update",outcome="ok",service="book"} ${books}`,
  `plaza_mongodb_command_duration_seconds_count{service="book",collection="books",command="update",outcome="ok"} ${books}`,
  `plaza_mongodb_command_duration_seconds_count{service="book",collection="collections",command="insert",outcome="ok"} ${entries}`,
  `plaza_mongodb_command_duration_seconds_count{service="book",collection="collections",command="insert",outcome="error"} 1`,
  'plaza_http_request_duration_seconds_count{route="/x",method="GET",status="200",service="book"} 99',
].join('\n');

describe('CommandMeter', () => {
  it('counts each service\'s commands per request in its metered rounds only, by collection and command', async () => {
    // book's counts at each scrape: a round (10 → 70), then commands outside the meter (a warm-up: 70 → 170), a round (170 → 200)
    const pages = [text(10, 4), '', text(70, 34), '', text(170, 40), '', text(200, 50), ''];
    const meter = new CommandMeter(new Map([['book', 'http://book/metrics'], ['note', 'http://note/metrics']]), async (url) => {
      const page = pages.shift();
      if (url.includes('note')) throw new Error('metrics off');
      return parseMetrics(page ?? '');
    });
    for (let round = 0; round < 2; round++) {
      await meter.start();
      await meter.stop();
    }
    expect(meter.perRequest(100)).toEqual({ 'book.books update': 0.9, 'book.collections insert': 0.4 });
  });

  it('writes the busiest first after the total, and says none when nothing was sent', () => {
    expect(commandsText({ 'book.collections insert': 0.2, 'book.books update': 0.58, 'note.notes find': 0.001 })).toBe('0.78: book.books update 0.58, book.collections insert 0.20');
    expect(commandsText({})).toBe('none');
  });
});
