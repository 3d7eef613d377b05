import { IMDB_ID, MovieListNames } from '@plaza/contracts';
import { Transform, Type } from 'class-transformer';
import {
  ArrayMaxSize, IsArray, IsBoolean, IsDefined, IsIn, IsInt, IsNumber, IsOptional, IsString, Matches, Max, MaxLength, Min,
  MinLength, ValidateIf, ValidateNested,
} from 'class-validator';

/**
 * Import records of the movie kinds (docs/api/import.md): the fields of each resource
 * as the API shows it at the richest tier. Derived fields (a subject's photos and
 * popular_reviews, a celebrity's works and photos, a photo's neighbours and position) are not
 * read from records: they come from the loaded records. Records over a cap (6 casts, say) are
 * accepted and cut on output; the bounds here only reject absurd input.
 */

const ID = /^\d{1,20}$/;
const idMessage = { message: '$property must be a string of digits' };
const TEXT = 500;
const URL_TEXT = 2000;

/** Numbers sometimes arrive as text (`"9.6"`, a year as `1994`): normalise before validation. */
const ToNumber = () => Transform(({ value }) => (typeof value === 'string' && value.trim() !== '' && !Number.isNaN(Number(value)) ? Number(value) : value));
const ToText = () => Transform(({ value }) => (typeof value === 'number' ? String(value) : value));

export class ImagesInput {
  @IsOptional() @IsString() @MaxLength(URL_TEXT) small?: string;
  @IsOptional() @IsString() @MaxLength(URL_TEXT) large?: string;
  @IsOptional() @IsString() @MaxLength(URL_TEXT) medium?: string;
}

export class SimpleRatingInput {
  /** Out of 10; `min`, `max` and `stars` of the shown shape are fixed or derived. */
  @IsOptional() @ToNumber() @IsNumber({ allowNaN: false, allowInfinity: false }) @Min(0) @Max(10) average?: number;
}

export class UserRatingInput {
  /** 1-5; 0 or absent means unrated. */
  @IsOptional() @ToNumber() @IsInt() @Min(0) @Max(5) value?: number;
}

/** A director, cast member or writer inside a subject record: shown as given. */
export class CreditInput {
  @Matches(ID, idMessage) id!: string;
  @IsString() @MinLength(1) @MaxLength(200) name!: string;
  @IsOptional() @IsString() @MaxLength(URL_TEXT) alt?: string;
  @IsOptional() @ValidateNested() @Type(() => ImagesInput) avatars?: ImagesInput;
}

const texts = (max = 100) => [IsOptional(), IsArray(), ArrayMaxSize(max), IsString({ each: true }), MaxLength(TEXT, { each: true })];
function TextList(max = 100): PropertyDecorator {
  return (target, key) => texts(max).forEach((d) => d(target, key));
}

const counter = () => [IsOptional(), ToNumber(), IsInt(), Min(0)];
function Count(): PropertyDecorator {
  return (target, key) => counter().forEach((d) => d(target, key));
}

/** `movie`: a Movie subject. */
export class MovieRecord {
  @Matches(ID, idMessage) id!: string;
  @IsString() @MinLength(1) @MaxLength(TEXT) title!: string;
  @IsOptional() @IsString() @MaxLength(TEXT) original_title?: string;
  @TextList() aka?: string[];
  @IsOptional() @IsString() @MaxLength(URL_TEXT) alt?: string;
  @IsOptional() @IsString() @MaxLength(URL_TEXT) mobile_url?: string;
  @IsOptional() @ValidateNested() @Type(() => SimpleRatingInput) rating?: SimpleRatingInput;
  @Count() ratings_count?: number;
  @Count() wish_count?: number;
  @Count() collect_count?: number;
  @Count() do_count?: number;
  @IsOptional() @ValidateNested() @Type(() => ImagesInput) images?: ImagesInput;
  @IsOptional() @IsIn(['movie', 'tv']) subtype?: 'movie' | 'tv';
  @IsOptional() @IsArray() @ArrayMaxSize(300) @ValidateNested({ each: true }) @Type(() => CreditInput) directors?: CreditInput[];
  @IsOptional() @IsArray() @ArrayMaxSize(300) @ValidateNested({ each: true }) @Type(() => CreditInput) casts?: CreditInput[];
  @IsOptional() @IsArray() @ArrayMaxSize(300) @ValidateNested({ each: true }) @Type(() => CreditInput) writers?: CreditInput[];
  @IsOptional() @IsString() @MaxLength(URL_TEXT) website?: string;
  /** `tt` and 7 or more digits; unique among subjects (docs/api/movie.md). */
  @IsOptional() @IsString() @Matches(IMDB_ID, { message: 'imdb must be tt followed by 7 or more digits' }) imdb?: string;
  @IsOptional() @IsString() @MaxLength(URL_TEXT) service_site?: string;
  /** The branded name of `service_site`, accepted from older data. */
  @IsOptional() @IsString() @MaxLength(URL_TEXT) douban_site?: string;
  @TextList() pubdates?: string[];
  @IsOptional() @IsString() @MaxLength(100) mainland_pubdate?: string;
  /** Deprecated copy of mainland_pubdate; used only when mainland_pubdate is absent. */
  @IsOptional() @IsString() @MaxLength(100) pubdate?: string;
  @IsOptional() @ToText() @IsString() @MaxLength(20) year?: string;
  @TextList() languages?: string[];
  @TextList() durations?: string[];
  @TextList() genres?: string[];
  @TextList() countries?: string[];
  @IsOptional() @IsString() @MaxLength(50_000) summary?: string;
  @Count() comments_count?: number;
  @Count() reviews_count?: number;
  @Count() seasons_count?: number;
  @Count() current_season?: number;
  @Count() episodes_count?: number;
  @IsOptional() @IsString() @MaxLength(URL_TEXT) schedule_url?: string;
  @TextList() trailer_urls?: string[];
  @TextList() clip_urls?: string[];
  @TextList() blooper_urls?: string[];
  /** Not shown in the subject, but searched (`/v2/movie/search?tag=`); `{name, count}` objects are taken by name. */
  @Transform(({ value }) => (Array.isArray(value) ? value.map((t) => (t && typeof t === 'object' && 'name' in t ? (t as { name: unknown }).name : t)) : value))
  @TextList(200)
  tags?: string[];
}

/** `celebrity`: a Movie celebrity (works and photos are derived). */
export class CelebrityRecord {
  @Matches(ID, idMessage) id!: string;
  @IsString() @MinLength(1) @MaxLength(200) name!: string;
  @IsOptional() @IsString() @MaxLength(200) name_en?: string;
  @IsOptional() @IsString() @MaxLength(URL_TEXT) alt?: string;
  @IsOptional() @IsString() @MaxLength(URL_TEXT) mobile_url?: string;
  @IsOptional() @ValidateNested() @Type(() => ImagesInput) avatars?: ImagesInput;
  @IsOptional() @IsString() @MaxLength(50_000) summary?: string;
  @TextList() aka?: string[];
  @TextList() aka_en?: string[];
  @IsOptional() @IsString() @MaxLength(URL_TEXT) website?: string;
  @IsOptional() @IsString() @MaxLength(20) gender?: string;
  @IsOptional() @IsString() @MaxLength(100) birthday?: string;
  @IsOptional() @IsString() @MaxLength(TEXT) born_place?: string;
  @TextList() professions?: string[];
  @IsOptional() @IsString() @MaxLength(20) constellation?: string;
}

/** Who wrote a review or comment, or took a photo: a user identity knows (by id or uid). */
export class AuthorInput {
  @ValidateIf((o: AuthorInput) => o.uid === undefined) @IsDefined({ message: 'author needs an id or a uid' }) @Matches(ID, idMessage) id?: string;
  @IsOptional() @Matches(/^[A-Za-z0-9_.-]{1,64}$/) uid?: string;
}

/**
 * The author is named by `author_id` or by `author` (a Simple User, of which `id` or `uid` is
 * used). The Simple User shown is identity's, taken at import; an unknown author fails the line.
 */
abstract class Authored {
  @ValidateIf((o: Authored) => o.author === undefined) @IsDefined({ message: 'author or author_id is required' }) @Matches(ID, idMessage) author_id?: string;
  @ValidateIf((o: Authored) => o.author_id === undefined) @IsDefined({ message: 'author or author_id is required' }) @ValidateNested() @Type(() => AuthorInput) author?: AuthorInput;
  /** `yyyy-MM-dd HH:mm:ss` in SERVICE_TIMEZONE, or an ISO 8601 instant. */
  @IsString() @MaxLength(40) created_at!: string;
}

abstract class PhotoFields extends Authored {
  @Matches(ID, idMessage) id!: string;
  @IsOptional() @IsString() @MaxLength(URL_TEXT) alt?: string;
  @IsOptional() @IsString() @MaxLength(URL_TEXT) icon?: string;
  @IsOptional() @IsString() @MaxLength(URL_TEXT) image?: string;
  @IsOptional() @IsString() @MaxLength(URL_TEXT) thumb?: string;
  @IsOptional() @IsString() @MaxLength(URL_TEXT) cover?: string;
  @IsOptional() @IsString() @MaxLength(5000) desc?: string;
  @IsOptional() @Matches(ID, idMessage) album_id?: string;
  @IsOptional() @IsString() @MaxLength(TEXT) album_title?: string;
  @IsOptional() @IsString() @MaxLength(URL_TEXT) album_url?: string;
  @Count() comments_count?: number;
}

/** `movie_photo`: a photo of a subject's album. */
export class MoviePhotoRecord extends PhotoFields {
  @Matches(ID, idMessage) subject_id!: string;
}

/** `celebrity_photo`: a photo of a celebrity, linked by `celebrity_id`. */
export class CelebrityPhotoRecord extends PhotoFields {
  @Matches(ID, idMessage) celebrity_id!: string;
}

/** `movie_review`: the abridged text is `summary` (or `content`, when summary is absent); cut to 100 characters on output. */
export class MovieReviewRecord extends Authored {
  @Matches(ID, idMessage) id!: string;
  @Matches(ID, idMessage) subject_id!: string;
  @IsString() @MinLength(1) @MaxLength(TEXT) title!: string;
  @IsOptional() @IsString() @MaxLength(URL_TEXT) alt?: string;
  @IsOptional() @IsString() @MaxLength(40) updated_at?: string;
  @ValidateIf((o: MovieReviewRecord) => o.content === undefined) @IsDefined({ message: 'summary or content is required' }) @IsString() @MaxLength(100_000) summary?: string;
  @IsOptional() @IsString() @MaxLength(100_000) content?: string;
  @IsOptional() @ValidateNested() @Type(() => UserRatingInput) rating?: UserRatingInput;
  @Count() useful_count?: number;
  @Count() useless_count?: number;
  @Count() comments_count?: number;
}

/** `movie_comment`: a short comment; `content` is cut to 140 characters on output. */
export class MovieCommentRecord extends Authored {
  @Matches(ID, idMessage) id!: string;
  @Matches(ID, idMessage) subject_id!: string;
  @IsString() @MinLength(1) @MaxLength(10_000) content!: string;
  @IsOptional() @ValidateNested() @Type(() => UserRatingInput) rating?: UserRatingInput;
  @Count() useful_count?: number;
}

export class ListEntryInput {
  @Matches(ID, idMessage) subject_id!: string;
  /** Position in the list (1 = first); entries are ordered by it, else kept in the order given. */
  @IsOptional() @ToNumber() @IsInt() @Min(1) rank?: number;
  /** us_box: box office takings. */
  @IsOptional() @ToNumber() @IsInt() @Min(0) box?: number;
  /** us_box: new on the list this time. */
  @IsOptional() @IsBoolean() new?: boolean;
  /** weekly: change of rank since the last list. */
  @IsOptional() @ToNumber() @IsInt() delta?: number;
}

/** `movie_list`: one list, upserted by (name, city); `city` is for in_theaters only (default 108288, 北京). */
export class MovieListRecord {
  @IsIn(MovieListNames) name!: (typeof MovieListNames)[number];
  @IsOptional() @IsString() @MaxLength(200) title?: string;
  @IsOptional() @IsString() @MaxLength(100) date?: string;
  /** Checked by the importer: a city on another list is an error, not silently ignored. */
  @IsOptional() @Matches(ID, idMessage) city?: string;
  @IsArray() @ArrayMaxSize(1000) @ValidateNested({ each: true }) @Type(() => ListEntryInput) subjects!: ListEntryInput[];
}
