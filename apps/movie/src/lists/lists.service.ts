import { Injectable } from '@nestjs/common';
import { MovieListName, MovieListRequest, MovieListResponse, MovieTier, PagedSubjectList } from '@plaza/contracts';
import { simpleSubjectForTier, withSubjectForTier } from '../common/tiers';
import { CityResolver } from './city-resolver';
import { listId, MovieListDocument } from './movie-list.schema';
import { MovieListsRepository } from './movie-lists.repository';

/** Titles of lists loaded without one (docs/api/movie.md fixes the in_theaters and coming_soon ones). */
export const DEFAULT_LIST_TITLES: Record<Exclude<MovieListName, 'in_theaters'>, string> = {
  top250: '电影 Top 250',
  us_box: '北美票房榜',
  weekly: '一周口碑榜',
  new_movies: '新片榜',
  coming_soon: '即将上映的电影',
};
export const inTheatersTitle = (cityName: string) => `正在上映的电影-${cityName}`;

/**
 * The ranked lists, each one stored document with its Simple Subjects precomputed. A list that
 * was never loaded answers empty (a city with nothing in theatres, say), not 404; an unknown
 * city is 404/1001.
 */
@Injectable()
export class ListsService {
  constructor(
    private readonly lists: MovieListsRepository,
    private readonly cities: CityResolver,
  ) {}

  async list(req: MovieListRequest): Promise<MovieListResponse> {
    const tier = req.caller.tier;
    switch (req.name) {
      case 'in_theaters': {
        const city = await this.cities.resolve(req.city);
        const doc = await this.lists.byId(listId('in_theaters', city.id));
        return paged(doc, inTheatersTitle(city.name), req, tier);
      }
      case 'top250':
      case 'coming_soon':
        return paged(await this.lists.byId(listId(req.name, null)), DEFAULT_LIST_TITLES[req.name], req, tier);
      case 'us_box': {
        const doc = await this.lists.byId(listId('us_box', null));
        const subjects = (doc?.entries ?? []).map((e) => withSubjectForTier({ rank: e.rank, box: e.box, new: e.new, subject: e.subject }, tier));
        return { title: doc?.title ?? DEFAULT_LIST_TITLES.us_box, date: doc?.date ?? '', subjects };
      }
      case 'weekly': {
        const doc = await this.lists.byId(listId('weekly', null));
        const subjects = (doc?.entries ?? []).map((e) => withSubjectForTier({ rank: e.rank, delta: e.delta, subject: e.subject }, tier));
        return { title: doc?.title ?? DEFAULT_LIST_TITLES.weekly, subjects };
      }
      case 'new_movies': {
        const doc = await this.lists.byId(listId('new_movies', null));
        return { title: doc?.title ?? DEFAULT_LIST_TITLES.new_movies, subjects: (doc?.entries ?? []).map((e) => simpleSubjectForTier(e.subject, tier)) };
      }
    }
  }
}

/** `{start, count, total, title, subjects}`: the lists that page (docs/api/movie.md: top250, in_theaters, coming_soon). */
function paged(doc: MovieListDocument | null, defaultTitle: string, req: MovieListRequest, tier: MovieTier): PagedSubjectList {
  const entries = doc?.entries ?? [];
  const start = req.start ?? 0;
  const count = req.count ?? 20;
  const subjects = entries.slice(start, start + count).map((e) => simpleSubjectForTier(e.subject, tier));
  return { start, count: subjects.length, total: entries.length, title: doc?.title ?? defaultTitle, subjects };
}
