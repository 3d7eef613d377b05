import { BookView } from './book.schema';
import { BooksService } from './books.service';

describe('BooksService.presentJson (the book as shown, held as JSON)', () => {
  const config = { PUBLIC_API_URL: 'https://api.example', PUBLIC_WEB_URL: 'https://www.example' };
  // the local engine holds the views these tests make, unless they say otherwise
  let held = true;
  const repository = { isHeld: () => held };
  const service = new BooksService(repository as never, {} as never, {} as never, {} as never, {} as never, config as never);
  beforeEach(() => (held = true));
  const view = (title: string, userTags: Record<string, number> = {}): BookView =>
    ({ _id: '42', title, base_tags: [{ name: '小说', count: 2 }], user_tags: userTags, base_rating: { num: 3, average: 7.5 } }) as unknown as BookView;

  it('is the JSON of `present`, the same bytes for the view while it is the one held', () => {
    const kept = view('春天 "one"');
    const json = service.presentJson(kept);
    expect(JSON.parse(json.toString())).toEqual(service.present(kept));
    expect(json.toString()).toBe(JSON.stringify(service.present(kept)));
    expect(service.presentJson(kept)).toBe(json);
  });

  it('keeps nothing of a view the local engine does not hold (a copy read from MongoDB)', () => {
    held = false;
    const copy = view('copy');
    const json = service.presentJson(copy);
    expect(json.toString()).toBe(JSON.stringify(service.present(copy)));
    expect(service.presentJson(copy)).not.toBe(json);
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
