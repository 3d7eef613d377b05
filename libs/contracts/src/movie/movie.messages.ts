import { Transform, Type } from 'class-transformer';
import { IsDefined, IsIn, IsInt, IsOptional, IsString, Matches, Max, MaxLength, Min, ValidateIf, ValidateNested } from 'class-validator';
import { Caller } from '../messaging/caller';
import { defineMessage } from '../messaging/define-message';
import {
  CelebrityPhotosPage, CelebrityWorksPage, MovieCelebrity, MovieListResponse, MoviePhotoView, MovieReview, MovieSearchPage, MovieSubject,
  SubjectCommentsPage, SubjectPhotosPage, SubjectReviewsPage,
} from './movie.shapes';
import { PATH_ID } from '../common/path-params';

/** A query parameter sent empty (`city=`) or blank counts as absent. */
function EmptyAsAbsent(): PropertyDecorator {
  return Transform(({ value }) => (typeof value === 'string' && value.trim() === '' ? undefined : value));
}

// ---- HTTP input (validated at the gateway, and again at the service inside the messages) ----

/** `GET /v2/movie/search`: `q` or `tag` (one of them is required, 400/1002 otherwise). */
export class MovieSearchQuery {
  @EmptyAsAbsent()
  @ValidateIf((o: MovieSearchQuery) => o.tag === undefined || o.q !== undefined)
  @IsDefined() @IsString() @MaxLength(100)
  q?: string;

  @EmptyAsAbsent() @IsOptional() @IsString() @MaxLength(100)
  tag?: string;
}

/** `GET /v2/movie/in_theaters`: `city` is a Chinese name, a uid or a numeric id; absent means 北京. */
export class InTheatersQuery {
  @EmptyAsAbsent() @IsOptional() @IsString() @MaxLength(100)
  city?: string;
}

/**
 * An IMDb id: `tt` and at least 7 digits (docs/api/movie.md, "GET /v2/movie/imdb/:imdb"). The
 * router lets any `:name`-like segment through, so a malformed one is 400/1016, not 404.
 */
export const IMDB_ID = /^tt[0-9]{7,198}$/;

// ---- messages ----

export class MovieSubjectRequest {
  @Matches(PATH_ID) id!: string;
  @ValidateNested() @Type(() => Caller) caller!: Caller;
}

export class MovieImdbRequest {
  @Matches(IMDB_ID) imdb!: string;
  @ValidateNested() @Type(() => Caller) caller!: Caller;
}

export class MovieSubjectPageRequest extends MovieSubjectRequest {
  @IsInt() @Min(0) start = 0;
  @IsInt() @Min(0) @Max(100) count = 10;
}

export class CelebrityRequest {
  @Matches(PATH_ID) id!: string;
  @ValidateNested() @Type(() => Caller) caller!: Caller;
}

export class CelebrityPageRequest extends CelebrityRequest {
  @IsInt() @Min(0) start = 0;
  @IsInt() @Min(0) @Max(100) count = 10;
}

export class MovieSearchRequest extends MovieSearchQuery {
  @IsInt() @Min(0) start = 0;
  @IsInt() @Min(0) @Max(100) count = 20;
  @ValidateNested() @Type(() => Caller) caller!: Caller;
}

export const MovieListNames = ['top250', 'us_box', 'weekly', 'new_movies', 'in_theaters', 'coming_soon'] as const;
export type MovieListName = (typeof MovieListNames)[number];

/** The lists without paging (us_box, weekly, new_movies) are answered whole: no start/count. */
export class MovieListRequest {
  @IsIn(MovieListNames) name!: MovieListName;
  /** in_theaters only. */
  @IsOptional() @IsString() @MaxLength(100) city?: string;
  @IsOptional() @IsInt() @Min(0) start?: number;
  @IsOptional() @IsInt() @Min(0) @Max(100) count?: number;
  @ValidateNested() @Type(() => Caller) caller!: Caller;
}

/** One movie review by id, its `summary` as loaded (not cut): the web page of its `alt` (docs/api/web.md). */
export class MovieReviewRequest {
  @Matches(PATH_ID) id!: string;
}

/**
 * One photo by id, with its place in its album and the album's owner: the web page of its `alt`
 * (docs/api/web.md). That address names no owner, so a subject's photo is looked for first, then
 * a celebrity's (the two kinds are loaded apart and may share an id).
 */
export class MoviePhotoRequest {
  @Matches(PATH_ID) id!: string;
}

/** Every request/reply of the movie service; the caller's tier decides which fields an answer has. */
export const MovieMessages = {
  getSubject: defineMessage<MovieSubjectRequest, MovieSubject>('movie.v1.subject.get', MovieSubjectRequest),
  getSubjectByImdb: defineMessage<MovieImdbRequest, MovieSubject>('movie.v1.subject.get-by-imdb', MovieImdbRequest),
  subjectPhotos: defineMessage<MovieSubjectPageRequest, SubjectPhotosPage>('movie.v1.subject.photos', MovieSubjectPageRequest),
  subjectReviews: defineMessage<MovieSubjectPageRequest, SubjectReviewsPage>('movie.v1.subject.reviews', MovieSubjectPageRequest),
  subjectComments: defineMessage<MovieSubjectPageRequest, SubjectCommentsPage>('movie.v1.subject.comments', MovieSubjectPageRequest),
  search: defineMessage<MovieSearchRequest, MovieSearchPage>('movie.v1.subject.search', MovieSearchRequest),
  getCelebrity: defineMessage<CelebrityRequest, MovieCelebrity>('movie.v1.celebrity.get', CelebrityRequest),
  celebrityWorks: defineMessage<CelebrityPageRequest, CelebrityWorksPage>('movie.v1.celebrity.works', CelebrityPageRequest),
  celebrityPhotos: defineMessage<CelebrityPageRequest, CelebrityPhotosPage>('movie.v1.celebrity.photos', CelebrityPageRequest),
  getList: defineMessage<MovieListRequest, MovieListResponse>('movie.v1.list.get', MovieListRequest),
  getReview: defineMessage<MovieReviewRequest, MovieReview>('movie.v1.review.get', MovieReviewRequest),
  getPhoto: defineMessage<MoviePhotoRequest, MoviePhotoView>('movie.v1.photo.get', MoviePhotoRequest),
} as const;
