import { Injectable } from '@nestjs/common';
import { MovieSearchPage, MovieSearchRequest } from '@plaza/contracts';
import { SEARCH_RESULT_LIMIT, searchQuery } from '@plaza/service-kit';
import { Caps } from '../common/caps';
import { seesAdvanceFields, simpleSubjectForTier } from '../common/tiers';
import { SubjectSearchRepository } from './subject-search.repository';
import { tagKey } from './subject.render';
import { SubjectViewsRepository } from './subject-views.repository';

/**
 * `GET /v2/movie/search`: `q` matches words of the Chinese and original titles, aka and tags
 * (libs/search terms, shared with books); `tag` matches a whole tag or genre; both given, both
 * must match. Order: a title equal to the query, then all terms in the titles, then all terms
 * anywhere, each by number of ratings (renderSearchEntry). The basic tier sees at most the first
 * 20 matches: `total` is at most 20 and nothing past the 20th is returned; other tiers reach the
 * first SEARCH_RESULT_LIMIT.
 */
@Injectable()
export class SearchService {
  constructor(
    private readonly entries: SubjectSearchRepository,
    private readonly views: SubjectViewsRepository,
  ) {}

  async search(req: MovieSearchRequest): Promise<MovieSearchPage> {
    const query = searchQuery(req.q, req.tag === undefined ? undefined : tagKey(req.tag));
    const limit = seesAdvanceFields(req.caller.tier) ? SEARCH_RESULT_LIMIT : Caps.basicSearchTotal;
    // a query of only punctuation or operators has no terms and matches nothing
    const { total, ids } =
      req.q !== undefined && query.terms.length === 0 ? { total: 0, ids: [] } : await this.entries.searchPage(query, { start: req.start, count: req.count, limit });
    const simples = await this.views.simples(ids);
    const subjects = simples.map((s) => simpleSubjectForTier(s, req.caller.tier));
    return { start: req.start, count: subjects.length, total, query: req.q ?? '', tag: req.tag ?? '', subjects };
  }
}
