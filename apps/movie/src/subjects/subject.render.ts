import { CelebrityRole, CelebrityRoles, MovieSubject, SimpleCelebrity, SimpleSubject } from '@plaza/contracts';
import { RankedSearchFields } from '@plaza/service-kit';
import { exactKey, indexTerms, normalize, searchRank } from '@plaza/search';
import { CreditInput, MovieRecord } from '../import/movie-import.records';
import { Caps } from '../common/caps';
import { withImages } from '../common/images';
import { MovieLinks } from '../common/links';
import { simpleRating } from '../common/ratings';
import { SubjectSearchDocument } from './subject-search.schema';

/** A loaded subject record as stored: the import record, plain. */
export type SubjectRecord = MovieRecord;

export function renderCredit(credit: CreditInput, links: MovieLinks): SimpleCelebrity {
  return {
    id: credit.id,
    name: credit.name,
    alt: credit.alt ?? links.celebrityAlt(credit.id),
    avatars: withImages(credit.avatars, links.celebrityAvatars(credit.id)),
  };
}

/**
 * A subject as the advance tier sees it, every default of docs/api/movie.md ("Movie subject") applied: empty text, [],
 * 0, and by subtype: `do_count`, `seasons_count`, `current_season`, `episodes_count` are numbers
 * for tv and null for movie; `schedule_url` is for movies (always empty for tv). `photos` and
 * `popular_reviews` are left empty here: they are derived from the loaded photos and reviews.
 */
export function renderSubject(r: SubjectRecord, links: MovieLinks): MovieSubject {
  const tv = r.subtype === 'tv';
  const tvOnly = (value: number | undefined) => (tv ? value ?? 0 : null);
  const mainland = r.mainland_pubdate ?? r.pubdate ?? '';
  return {
    id: r.id,
    title: r.title,
    original_title: r.original_title ?? '',
    aka: r.aka ?? [],
    alt: r.alt ?? links.subjectAlt(r.id),
    mobile_url: r.mobile_url ?? links.subjectMobile(r.id),
    rating: simpleRating(r.rating?.average),
    ratings_count: r.ratings_count ?? 0,
    wish_count: r.wish_count ?? 0,
    collect_count: r.collect_count ?? 0,
    do_count: tvOnly(r.do_count),
    images: withImages(r.images, links.subjectImages(r.id)),
    subtype: tv ? 'tv' : 'movie',
    directors: (r.directors ?? []).map((c) => renderCredit(c, links)),
    casts: (r.casts ?? []).slice(0, Caps.casts).map((c) => renderCredit(c, links)),
    writers: (r.writers ?? []).map((c) => renderCredit(c, links)),
    website: r.website ?? '',
    imdb: r.imdb ?? '',
    service_site: r.service_site ?? r.douban_site ?? '',
    pubdates: r.pubdates ?? [],
    mainland_pubdate: mainland,
    pubdate: mainland,
    year: r.year ?? '',
    languages: r.languages ?? [],
    durations: r.durations ?? [],
    genres: (r.genres ?? []).slice(0, Caps.genres),
    countries: r.countries ?? [],
    summary: r.summary ?? '',
    comments_count: r.comments_count ?? 0,
    reviews_count: r.reviews_count ?? 0,
    seasons_count: tvOnly(r.seasons_count),
    current_season: tvOnly(r.current_season),
    episodes_count: tvOnly(r.episodes_count),
    schedule_url: tv ? '' : r.schedule_url ?? '',
    trailer_urls: (r.trailer_urls ?? []).slice(0, Caps.videoUrls),
    clip_urls: (r.clip_urls ?? []).slice(0, Caps.videoUrls),
    blooper_urls: (r.blooper_urls ?? []).slice(0, Caps.videoUrls),
    photos: [],
    popular_reviews: [],
  };
}

export function renderSimpleSubject(r: SubjectRecord, links: MovieLinks): SimpleSubject {
  return {
    id: r.id,
    title: r.title,
    original_title: r.original_title ?? '',
    alt: r.alt ?? links.subjectAlt(r.id),
    images: withImages(r.images, links.subjectImages(r.id)),
    rating: simpleRating(r.rating?.average),
    pubdates: r.pubdates ?? [],
    year: r.year ?? '',
    subtype: r.subtype === 'tv' ? 'tv' : 'movie',
  };
}

/**
 * The subject's search entry: `q` matches terms of the Chinese and original titles, alternative
 * titles and tags (libs/search); `tag` matches a whole tag or genre after normalisation
 * (`Sci-Fi` = `sci-fi`). The order (ranked-search.ts in @plaza/service-kit): a title (Chinese,
 * original or aka) equal to the query, then every term in the titles, then every term anywhere;
 * within each, and for `tag` alone, more ratings first, then the lower id.
 */
export function renderSearchEntry(r: SubjectRecord): SubjectSearchDocument {
  const entry = {
    _id: r.id,
    search_terms: indexTerms(r.title, r.original_title, ...(r.aka ?? []), ...(r.tags ?? [])),
    tag_keys: [...new Set([...(r.tags ?? []), ...(r.genres ?? [])].map(tagKey).filter(Boolean))],
    title: r.title,
    original_title: r.original_title ?? '',
    aka: r.aka ?? [],
    tags: r.tags ?? [],
    ratings_count: r.ratings_count ?? 0,
  };
  return { ...entry, ...subjectSearchFields(entry) };
}

/** The ranking fields of an entry, from its titles and ratings (entries stored before they existed get them here too). */
export function subjectSearchFields(
  entry: Pick<SubjectSearchDocument, '_id' | 'title' | 'original_title' | 'aka' | 'ratings_count' | 'search_terms' | 'tag_keys'>,
): RankedSearchFields {
  const titles = [entry.title, entry.original_title, ...(entry.aka ?? [])];
  return {
    search_terms: entry.search_terms ?? [],
    tag_keys: entry.tag_keys ?? [],
    title_terms: indexTerms(...titles),
    title_keys: [...new Set(titles.map(exactKey).filter(Boolean))],
    search_rank: searchRank(entry.ratings_count ?? 0, entry._id),
  };
}

export const tagKey = (tag: string): string => normalize(tag).trim();

const ROLE_ORDER: CelebrityRole[] = [CelebrityRoles.director, CelebrityRoles.writer, CelebrityRoles.cast];

/** Each credited celebrity's roles in this subject: directors 导演, writers 编剧, casts 演员 (all casts, not only the 4 shown). */
export function creditsOf(r: SubjectRecord | null | undefined): Map<string, CelebrityRole[]> {
  const roles = new Map<string, Set<CelebrityRole>>();
  const add = (people: CreditInput[] | undefined, role: CelebrityRole) => {
    for (const p of people ?? []) {
      let set = roles.get(p.id);
      if (!set) roles.set(p.id, (set = new Set()));
      set.add(role);
    }
  };
  if (r) {
    add(r.directors, CelebrityRoles.director);
    add(r.writers, CelebrityRoles.writer);
    add(r.casts, CelebrityRoles.cast);
  }
  return new Map([...roles].map(([id, set]) => [id, ROLE_ORDER.filter((role) => set.has(role))]));
}
