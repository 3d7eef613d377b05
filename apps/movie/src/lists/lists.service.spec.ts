import { ApiError, Caller, MovieListRequest } from '@plaza/contracts';
import { CityResolver, DEFAULT_CITY } from './city-resolver';
import { ListsService } from './lists.service';
import { MovieListDocument, StoredListEntry } from './movie-list.schema';
import { MovieListsRepository } from './movie-lists.repository';

const entry = (id: string, extra: Partial<StoredListEntry> = {}): StoredListEntry =>
  ({ subject_id: id, rank: 1, box: 0, new: false, delta: 0, subject: { id, title: id, pubdates: ['2020'] }, ...extra }) as StoredListEntry;

function service(docs: Record<string, Partial<MovieListDocument>>, resolve = jest.fn()) {
  const lists = { byId: jest.fn(async (id: string) => (docs[id] ? ({ title: null, date: '', entries: [], ...docs[id] } as MovieListDocument) : null)) };
  const bus = { request: resolve };
  return { lists: new ListsService(lists as unknown as MovieListsRepository, new CityResolver(bus as never)), resolve };
}

const req = (name: MovieListRequest['name'], extra: Partial<MovieListRequest> = {}, tier: Caller['tier'] = 'basic') =>
  ({ name, caller: { tier }, ...extra }) as MovieListRequest;

describe('ListsService', () => {
  it('shows 北京 without asking the event service, titled after the city', async () => {
    const { lists, resolve } = service({ 'in_theaters:108288': { entries: [entry('1'), entry('2')] } });
    for (const city of [undefined, '北京', '108288', 'beijing']) {
      expect(await lists.list(req('in_theaters', { city, start: 1, count: 5 }))).toEqual({
        start: 1, count: 1, total: 2, title: '正在上映的电影-北京', subjects: [{ id: '2', title: '2' }],
      });
    }
    expect(resolve).not.toHaveBeenCalled();
    expect(DEFAULT_CITY.id).toBe('108288');
  });

  it('asks the event service for another city; a known city without a list is an empty list', async () => {
    const resolve = jest.fn(async () => ({ id: '108296', name: '上海', uid: 'shanghai' }));
    const { lists } = service({}, resolve);
    expect(await lists.list(req('in_theaters', { city: '上海', start: 0, count: 20 }))).toEqual({ start: 0, count: 0, total: 0, title: '正在上映的电影-上海', subjects: [] });
    expect(resolve).toHaveBeenCalledWith(expect.objectContaining({ subject: 'event.v1.loc.resolve' }), { ref: '上海' }, expect.anything());
  });

  it('passes on the event service\'s 404 for an unknown city', async () => {
    const { lists } = service({}, jest.fn(async () => { throw new ApiError('uri_not_found'); }));
    await expect(lists.list(req('in_theaters', { city: '火星' }))).rejects.toMatchObject({ code: 1001 });
  });

  it('answers the unpaged lists whole, with their element shapes and defaults', async () => {
    const { lists } = service({
      us_box: { date: '5月', entries: [entry('1', { rank: 1, box: 9, new: true }), entry('2', { rank: 2 })] },
      weekly: { title: '本周', entries: [entry('3', { rank: 1, delta: -2 })] },
    });
    expect(await lists.list(req('us_box'))).toEqual({
      title: '北美票房榜', date: '5月', subjects: [{ rank: 1, box: 9, new: true, subject: { id: '1', title: '1' } }, { rank: 2, box: 0, new: false, subject: { id: '2', title: '2' } }],
    });
    expect(await lists.list(req('weekly', {}, 'advance'))).toEqual({ title: '本周', subjects: [{ rank: 1, delta: -2, subject: { id: '3', title: '3', pubdates: ['2020'] } }] });
    expect(await lists.list(req('new_movies', {}, 'advance'))).toEqual({ title: '新片榜', subjects: [] });
    expect(await lists.list(req('coming_soon', { start: 0, count: 20 }))).toMatchObject({ title: '即将上映的电影', total: 0 });
  });
});
