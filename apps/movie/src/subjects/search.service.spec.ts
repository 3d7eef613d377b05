import { Caller, MovieSearchRequest, SimpleSubject } from '@plaza/contracts';
import { SearchService } from './search.service';
import { SubjectSearchDocument } from './subject-search.schema';
import { SubjectSearchRepository } from './subject-search.repository';
import { SubjectViewsRepository } from './subject-views.repository';

const entry = (id: string, title: string, ratings = 0): SubjectSearchDocument =>
  ({ _id: id, title, original_title: '', aka: [], tags: [], ratings_count: ratings, search_terms: [], tag_keys: [] });

function service(entries: SubjectSearchDocument[]) {
  const matching = jest.fn(async () => entries);
  const simples = jest.fn(async (ids: string[]) => ids.map((id) => ({ id, title: `t${id}`, pubdates: ['2020'] }) as SimpleSubject));
  const search = new SearchService({ matching } as unknown as SubjectSearchRepository, { simples } as unknown as SubjectViewsRepository);
  return { search, matching, simples };
}

const request = (q: string | undefined, tier: Caller['tier'], extra: Partial<MovieSearchRequest> = {}) =>
  ({ q, start: 0, count: 100, caller: { tier, scopes: [] }, ...extra }) as MovieSearchRequest;

describe('SearchService', () => {
  it('ranks the title that equals the query first, then by number of ratings', async () => {
    const { search } = service([entry('1', '星空漫游 续集', 10), entry('2', '星空漫游', 1), entry('3', '漫游星空', 50)]);
    const page = await search.search(request('星空漫游', 'advance'));
    expect(page.subjects.map((s) => s.id)).toEqual(['2', '1', '3']);
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
    const { search, matching } = service([entry('1', 't')]);
    expect(await search.search(request('.*$', 'advance'))).toMatchObject({ total: 0, subjects: [], query: '.*$', tag: '' });
    expect(matching).not.toHaveBeenCalled();
  });

  it('passes plain terms and a normalised tag to the repository', async () => {
    const { search, matching } = service([]);
    await search.search(request('Star WARS', 'advance', { tag: ' Sci-Fi ' }));
    expect(matching).toHaveBeenCalledWith(['star', 'wars'], 'sci-fi');
  });
});
