import { CollectionDocument } from '../collections/collection.schema';
import { BookView } from './book.schema';
import { presentBook } from './book-view';
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

describe('BooksService answers joined from held JSON (a book by id, a search page)', () => {
  const config = { PUBLIC_API_URL: 'https://api.example', PUBLIC_WEB_URL: 'https://www.example', SERVICE_TIMEZONE: 'Asia/Shanghai' };
  const book = (id: string, title: string): BookView =>
    ({ _id: id, title, base_tags: [{ name: '小说', count: 2 }], base_rating: { num: 3, average: 7.5 }, series: { id: '9', title: 'S' } }) as unknown as BookView;
  const books = new Map([book('1', '春天'), book('2', 'winter "quoted"')].map((b) => [b._id, b]));
  const stored = (id: string) => books.get(id) as BookView;
  const entry = { id: 7, user_id: 'u1', book_id: '2', status: 'read', rating: 4, updated: new Date('2026-01-02T03:04:05Z') } as unknown as CollectionDocument;
  const repository = {
    isHeld: () => true,
    byId: async (id: string) => books.get(id) ?? null,
    byIds: async (ids: string[]) => new Map(ids.flatMap((id) => (books.has(id) ? [[id, books.get(id)]] : []))),
    searchPage: async () => ({ total: 2, ids: ['1', '2'] }),
  };
  const collections = { ofUserForBooks: async (userId: string, ids: string[]) => new Map(userId === 'u1' && ids.includes('2') ? [['2', entry]] : []) };
  const service = new BooksService(repository as never, {} as never, {} as never, collections as never, {} as never, config as never);
  const addresses = { publicApiUrl: config.PUBLIC_API_URL, publicWebUrl: config.PUBLIC_WEB_URL };
  const page = { start: 0, count: 20 };

  it('a book by id: what JSON.stringify writes for presentBook, with the own entry of the caller last', async () => {
    const shown = await service.get('2', { userId: 'u1' } as never);
    expect(shown.bytes.toString()).toBe(JSON.stringify(presentBook(stored('2'), addresses, service.presentCurrent(entry))));
    expect(JSON.parse(shown.bytes.toString()).current_user_collection).toMatchObject({ status: 'read', id: 7, book_id: '2' });
    const anonymous = await service.get('2', {} as never);
    expect(anonymous.bytes.toString()).toBe(JSON.stringify(presentBook(stored('2'), addresses)));
  });

  it('a search page: the list envelope of the books as shown, each with the own entry of the caller', async () => {
    const shown = await service.search({ q: '春天' } as never, page as never, { userId: 'u1' } as never);
    const expected = { start: 0, count: 2, total: 2, books: [presentBook(stored('1'), addresses), presentBook(stored('2'), addresses, service.presentCurrent(entry))] };
    expect(shown.bytes.toString()).toBe(JSON.stringify(expected));
  });

  it('a query of only punctuation: an empty page', async () => {
    const shown = await service.search({ q: '!!' } as never, page as never, {} as never);
    expect(JSON.parse(shown.bytes.toString())).toEqual({ start: 0, count: 0, total: 0, books: [] });
  });
});
