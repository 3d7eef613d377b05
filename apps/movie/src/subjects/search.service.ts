import { Injectable } from '@nestjs/common';
import { MovieSearchPage, MovieSearchRequest } from '@plaza/contracts';
import { queryTerms, relevance } from '@plaza/search';
import { Caps } from '../shared/caps';
import { seesAdvanceFields, simpleSubjectForTier } from '../shared/tiers';
import { SubjectSearchCard, SubjectSearchRepository } from './subject-search.repository';
import { tagKey } from './subject.render';
import { SubjectViewsRepository } from './subject-views.repository';

const idOrder = (a: string, b: string) => (a.length - b.length) || (a < b ? -1 : a > b ? 1 : 0);

/**
 * `GET /v2/movie/search`: `q` matches words of the Chinese and original titles, aka and tags
 * (libs/search terms, shared with books); `tag` matches a whole tag or genre; both given, both
 * must match. Ranked by relevance to `q`, then by number of ratings. The basic tier sees at most
 * the first 20 matches: `total` is at most 20 and nothing past the 20th is returned.
 */
@Injectable()
export class SearchService {
  constructor(
    private readonly entries: SubjectSearchRepository,
    private readonly views: SubjectViewsRepository,
  ) {}

  async search(req: MovieSearchRequest): Promise<MovieSearchPage> {
    const ranked = await this.rankedMatches(req.q, req.tag);
    const visible = seesAdvanceFields(req.caller.tier) ? ranked : ranked.slice(0, Caps.basicSearchTotal);
    const simples = await this.views.simples(visible.slice(req.start, req.start + req.count).map((c) => c._id));
    const subjects = simples.map((s) => simpleSubjectForTier(s, req.caller.tier));
    return { start: req.start, count: subjects.length, total: visible.length, query: req.q ?? '', tag: req.tag ?? '', subjects };
  }

  private async rankedMatches(q: string | undefined, tag: string | undefined): Promise<SubjectSearchCard[]> {
    const terms = q === undefined ? [] : queryTerms(q);
    // a query of only punctuation or operators has no terms and matches nothing
    if (q !== undefined && terms.length === 0) return [];
    const matches = await this.entries.matching(terms, tag === undefined ? undefined : tagKey(tag));
    const score = (c: SubjectSearchCard) =>
      q === undefined
        ? 0
        : relevance(q, [
            { text: c.title, weight: 3 },
            { text: c.original_title, weight: 3 },
            ...c.aka.map((text) => ({ text, weight: 2 })),
            ...c.tags.map((text) => ({ text, weight: 1 })),
          ]);
    const scored = matches.map((c) => ({ c, s: score(c) }));
    scored.sort((a, b) => b.s - a.s || b.c.ratings_count - a.c.ratings_count || idOrder(a.c._id, b.c._id));
    return scored.map(({ c }) => c);
  }
}
