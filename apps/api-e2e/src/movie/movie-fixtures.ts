import { Apps, TestApp, user } from '../support/fixtures';
import { RequestOptions } from '../support/http';

/** Records of fixtures/movie.ndjson used by the movie suites (ids of the movie area only). */
export const MovieUsers = {
  critic: user('3001', 'movie_critic', '影评人阿木'),
  fan: user('3002', 'film_fan', 'Film Fan'),
  quiet: user('3003', 'movie_quiet', '沉默的观众'),
};

export const Subjects = {
  /** Every field given, several over their caps; 12 photos, 12 reviews, 12 comments. */
  full: '2600001',
  minimalMovie: '2600002',
  minimalTv: '2600003',
  fullTv: '2600004',
  /** Found by its aka "Nobody Special" only. */
  nobody: '2600005',
  /** "星空漫游 第n部" / "Starry Voyage n", n = 1..25. */
  star: (n: number) => String(2610000 + n),
  missing: '2699999',
};

export const Celebrities = {
  /** Directs the full movie and 6 "星空漫游", writes the full movie; 12 photos. */
  wang: '1300001',
  firstCast: '1300002',
  /** Only a writer of the full movie. */
  writer: '1300008',
  /** A name and nothing else; credited nowhere. */
  minimal: '1300010',
  missing: '1399999',
};

export type TierName = TestApp['tier'];
export const TIERS: TierName[] = ['basic', 'advance', 'premium'];

/** Request options that make a call of the given tier: `apikey` of the tier's test app (basic: anonymous). */
export function asTier(tier: TierName, query: RequestOptions['query'] = {}): RequestOptions {
  return tier === 'basic' ? { query } : { query: { ...query, apikey: Apps[tier].clientId } };
}

export const SUBJECT_B_FIELDS = [
  'id', 'title', 'original_title', 'aka', 'alt', 'mobile_url', 'rating', 'ratings_count', 'wish_count', 'collect_count', 'do_count',
  'images', 'subtype', 'directors', 'casts', 'service_site', 'year', 'genres', 'countries', 'summary', 'comments_count',
  'reviews_count', 'seasons_count', 'current_season', 'episodes_count', 'schedule_url',
];
export const SUBJECT_A_FIELDS = [
  'writers', 'website', 'imdb', 'pubdates', 'mainland_pubdate', 'pubdate', 'languages', 'durations', 'trailer_urls', 'clip_urls',
  'blooper_urls', 'photos', 'popular_reviews',
];
export const CELEBRITY_B_FIELDS = ['id', 'name', 'name_en', 'alt', 'mobile_url', 'avatars', 'aka', 'aka_en', 'gender', 'born_place', 'works'];
export const CELEBRITY_A_FIELDS = ['summary', 'website', 'birthday', 'professions', 'constellation', 'photos'];
export const SIMPLE_SUBJECT_B_FIELDS = ['id', 'title', 'original_title', 'alt', 'images', 'rating', 'year', 'subtype'];
export const SIMPLE_USER_FIELDS = ['alt', 'avatar', 'id', 'name', 'signature', 'uid'];
export const PHOTO_FIELDS = [
  'id', 'subject_id', 'alt', 'icon', 'image', 'thumb', 'cover', 'created_at', 'desc', 'author', 'album_id', 'album_title',
  'album_url', 'next_photo', 'prev_photo', 'position', 'comments_count', 'photos_count',
];
export const REVIEW_FIELDS = [
  'id', 'title', 'alt', 'created_at', 'updated_at', 'subject_id', 'author', 'summary', 'rating', 'useful_count', 'useless_count', 'comments_count',
];
export const COMMENT_FIELDS = ['id', 'created_at', 'subject_id', 'author', 'content', 'rating', 'useful_count'];

export const sorted = (keys: string[]) => [...keys].sort();
export const keysOf = (value: object) => Object.keys(value).sort();
/** Length in characters (code points), as the caps count them. */
export const chars = (text: string) => Array.from(text).length;
