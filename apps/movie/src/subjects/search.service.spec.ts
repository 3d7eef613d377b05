import { Caller, MovieSearchRequest, SimpleSubject } from '@plaza/contracts';
import { LocalSearchIndex } from '@plaza/service-kit';
import { SearchService } from './search.service';
import { renderSearchEntry, subjectSearchFields } from './subject.render';
import { SubjectSearchDocument } from './subject-search.schema';
import { SubjectSearchRepository } from './subject-search.repository';
import { SubjectViewsRepository } from './subject-views.repository';

const entry = (id: string, title: string, ratings = 0, extra: { aka?: string[]; tags?: string[] } = {}): SubjectSearchDocument =>
  renderSearchEntry({ id, title, ratings_count: ratings, ...extra } as never);

/** The service over the local engine's index (the same order as the MongoDB branch's tiers). */
function service(entries: SubjectSearchDocument[]) {
  const index = new LocalSearchIndex<SubjectSearchDocument>(subjectSearchFields);
  for (const e of entries) index.put(e);
  const searchPage = jest.fn(async (...args: Parameters<SubjectSearchRepository['searchPage']>) => index.page(...args));
  const simples = jest.fn(async (ids: string[]) => ids.map((id) => ({ id, title: `t${id}`, pubdates: ['2020'] }) as SimpleSubject));
  const search = new SearchService({ searchPage } as unknown as SubjectSearchRepository, { simples } as unknown as SubjectViewsRepository);
  return { search, searchPage, simples };
}

const request = (q: string | undefined, tier: Caller['tier'], extra: Partial<MovieSearchRequest> = {}) =>
  ({ q, start: 0, count: 100, caller: { tier }, ...extra }) as MovieSearchRequest;

describe('SearchService', () => {
  it('ranks the title that equals the query first, then titles holding it, by number of ratings', async () => {
    const { search } = service([entry('1', '星空漫游 续集', 10), entry('2', '星空漫游', 1), entry('3', '漫游星空', 50), entry('4', '别的', 90, { aka: ['星空漫游记'] })]);
    const page = await search.search(request('星空漫游', 'advance'));
    expect(page.subjects.map((s) => s.id)).toEqual(['2', '4', '1']);
  });

  it('shows the basic tier the first 20 matches only, without pubdates', async () => {
    const { search, simples } = service(Array.from({ length: 30 }, (_, i) => entry(String(i + 1), 't', 100 - i)));
    const basic = await search.search(request('t', 'basic', { start: 18, count: 5 }));
    expect(basic).toMatchObject({ total: 20, count: 2, subjects: [{ id: '19', title: 't19' }, { id: '20', title: 't20' }] });
    expect(basic.subjects[0]).not.toHaveProperty('pubdates');
    expect(simples).toHaveBeenLastCalledWith(['19', '20']);
    expect(await search.search(request('t', 'premium', { start: 18, count: 5 }))).toMatchObject({ total: 30, count: 5 });
  });

  it('does not query at all for a q without letters or digits', async () => {
    const { search, searchPage } = service([entry('1', 't')]);
    expect(await search.search(request('.*$', 'advance'))).toMatchObject({ total: 0, subjects: [], query: '.*$', tag: '' });
    expect(searchPage).not.toHaveBeenCalled();
  });

  it('passes plain terms and a normalised tag to the repository', async () => {
    const { search, searchPage } = service([]);
    await search.search(request('Star WARS', 'advance', { tag: ' Sci-Fi ' }));
    expect(searchPage).toHaveBeenCalledWith({ terms: ['star', 'wars'], exact: 'star wars', tagKey: 'sci-fi' }, { start: 0, count: 100, limit: 1000 });
  });
});
