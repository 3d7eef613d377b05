import { BookView } from './book.schema';
import { BooksService } from './books.service';

describe('BooksService.presentJson (the book as shown, held as JSON)', () => {
  const config = { PUBLIC_API_URL: 'https://api.example', PUBLIC_WEB_URL: 'https://www.example' };
  const service = new BooksService({} as never, {} as never, {} as never, {} as never, {} as never, config as never);
  const view = (title: string, userTags: Record<string, number> = {}): BookView =>
    ({ _id: '42', title, base_tags: [{ name: '小说', count: 2 }], user_tags: userTags, base_rating: { num: 3, average: 7.5 } }) as unknown as BookView;

  it('is the JSON of `present`, the same bytes for the view while it is the one held', () => {
    const held = view('春天 "one"');
    const json = service.presentJson(held);
    expect(JSON.parse(json.toString())).toEqual(service.present(held));
    expect(json.toString()).toBe(JSON.stringify(service.present(held)));
    expect(service.presentJson(held)).toBe(json);
  });

  it('shows a changed book as it is now: a change makes a new view', () => {
    const before = view('before');
    expect(JSON.parse(service.presentJson(before).toString()).title).toBe('before');
    const after = view('after', { t5bCP6K05: 4 });
    const shown = JSON.parse(service.presentJson(after).toString());
    expect(shown.title).toBe('after');
    expect(shown).toEqual(service.present(after));
  });
});
