import { SimpleUser } from '../common/user';

/**
 * Response shapes of the movie area, field for field as docs/api/movie.md's "Movie subject",
 * "Movie celebrity" and "Appendix structures" list them. Fields marked A there
 * (advance and premium only) are optional here: a basic-tier answer leaves them out.
 */

export type MovieSubtype = 'movie' | 'tv';

/** Picture addresses in three sizes (subject posters, celebrity avatars). */
export interface MovieImages {
  small: string;
  large: string;
  medium: string;
}

/** Simple Rating: out of 10, `average` with one decimal, `stars` = round(average) x 5 (9.6 -> 50). */
export interface SimpleRating {
  min: number;
  max: number;
  average: number;
  stars: number;
}

/** Rating of a review or a short comment: `value` out of `max` (5); 0 when unrated. */
export interface MovieRating {
  min: number;
  max: number;
  value: number;
}

export interface SimpleCelebrity {
  id: string;
  name: string;
  alt: string;
  avatars: MovieImages;
}

export interface SimpleSubject {
  id: string;
  title: string;
  original_title: string;
  alt: string;
  images: MovieImages;
  rating: SimpleRating;
  /** A: advance and premium only. */
  pubdates?: string[];
  year: string;
  subtype: MovieSubtype;
}

export interface MoviePhoto {
  id: string;
  /** The subject the album belongs to; for a celebrity's photo, the celebrity's id. */
  subject_id: string;
  alt: string;
  icon: string;
  image: string;
  thumb: string;
  cover: string;
  created_at: string;
  desc: string;
  author: SimpleUser;
  album_id: string;
  album_title: string;
  album_url: string;
  next_photo: string;
  prev_photo: string;
  /** 1-based place in the album, ordered by time (oldest first). */
  position: number;
  comments_count: number;
  /** Photos in the album. */
  photos_count: number;
}

export interface MovieReview {
  id: string;
  title: string;
  alt: string;
  created_at: string;
  updated_at: string;
  subject_id: string;
  author: SimpleUser;
  /** At most 100 characters. */
  summary: string;
  rating: MovieRating;
  useful_count: number;
  useless_count: number;
  comments_count: number;
}

export interface MovieComment {
  id: string;
  created_at: string;
  subject_id: string;
  author: SimpleUser;
  /** At most 140 characters. */
  content: string;
  rating: MovieRating;
  useful_count: number;
}

export interface MovieSubject {
  id: string;
  title: string;
  original_title: string;
  aka: string[];
  alt: string;
  mobile_url: string;
  rating: SimpleRating;
  ratings_count: number;
  wish_count: number;
  collect_count: number;
  /** tv: a number (0 when unknown); movie: null. */
  do_count: number | null;
  images: MovieImages;
  subtype: MovieSubtype;
  directors: SimpleCelebrity[];
  /** At most 4. */
  casts: SimpleCelebrity[];
  writers?: SimpleCelebrity[];
  website?: string;
  /** The subject's IMDb id (`tt…`), `""` when none was loaded; an advance field (docs/api/movie.md). */
  imdb?: string;
  /** The interface's `douban_site`, renamed (docs/api/movie.md, "Movie subject"). */
  service_site: string;
  pubdates?: string[];
  mainland_pubdate?: string;
  /** Deprecated copy of `mainland_pubdate` (docs/api/README.md, "Versions"). */
  pubdate?: string;
  year: string;
  languages?: string[];
  durations?: string[];
  /** At most 3. */
  genres: string[];
  countries: string[];
  summary: string;
  comments_count: number;
  reviews_count: number;
  /** tv: a number (0 when unknown); movie: null. */
  seasons_count: number | null;
  current_season: number | null;
  episodes_count: number | null;
  /** movie only; empty for tv. */
  schedule_url: string;
  trailer_urls?: string[];
  clip_urls?: string[];
  blooper_urls?: string[];
  /** The first 10 photos of the subject's album. */
  photos?: MoviePhoto[];
  /** The first 10 reviews, most useful first. */
  popular_reviews?: MovieReview[];
}

export interface MovieCelebrity {
  id: string;
  name: string;
  name_en: string;
  alt: string;
  mobile_url: string;
  avatars: MovieImages;
  summary?: string;
  aka: string[];
  aka_en: string[];
  website?: string;
  gender: string;
  birthday?: string;
  born_place: string;
  professions?: string[];
  constellation?: string;
  /** At most 10. */
  photos?: MoviePhoto[];
  /** At most 5, newest first. */
  works: SimpleSubject[];
}

/** Role names of a celebrity in a work, derived from the subject's directors, writers and casts. */
export const CelebrityRoles = { director: '导演', writer: '编剧', cast: '演员' } as const;
export type CelebrityRole = (typeof CelebrityRoles)[keyof typeof CelebrityRoles];

export interface CelebrityWork {
  roles: CelebrityRole[];
  subject: SimpleSubject;
}

export interface BoxSubject {
  rank: number;
  box: number;
  new: boolean;
  subject: SimpleSubject;
}

export interface WeeklySubject {
  rank: number;
  delta: number;
  subject: SimpleSubject;
}

interface Page {
  start: number;
  count: number;
  total: number;
}

export interface SubjectPhotosPage extends Page {
  subject: SimpleSubject;
  photos: MoviePhoto[];
}

export interface SubjectReviewsPage extends Page {
  subject: SimpleSubject;
  reviews: MovieReview[];
}

export interface SubjectCommentsPage extends Page {
  subject: SimpleSubject;
  comments: MovieComment[];
}

export interface CelebrityWorksPage extends Page {
  celebrity: SimpleCelebrity;
  works: CelebrityWork[];
}

export interface CelebrityPhotosPage extends Page {
  celebrity: SimpleCelebrity;
  photos: MoviePhoto[];
}

/** `movie.v1.photo.get`: a photo (its album place filled in) and the subject or celebrity whose album holds it. */
export interface MoviePhotoView {
  photo: MoviePhoto;
  subject?: SimpleSubject;
  celebrity?: SimpleCelebrity;
}

export interface MovieSearchPage extends Page {
  query: string;
  tag: string;
  subjects: SimpleSubject[];
}

/** top250, in_theaters, coming_soon. */
export interface PagedSubjectList extends Page {
  title: string;
  subjects: SimpleSubject[];
}

export interface UsBoxList {
  title: string;
  /** The date range the list covers, as loaded (for example `5月20 - 5月22日`). */
  date: string;
  subjects: BoxSubject[];
}

export interface WeeklyList {
  title: string;
  subjects: WeeklySubject[];
}

export interface NewMoviesList {
  title: string;
  subjects: SimpleSubject[];
}

export type MovieListResponse = PagedSubjectList | UsBoxList | WeeklyList | NewMoviesList;
