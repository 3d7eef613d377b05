import { IsDefined, IsIn, IsInt, IsNotEmpty, IsOptional, IsString, Matches, Max, MaxLength, Min } from 'class-validator';
import { NoBannedWords } from '../validation/banned-words';
import { ToOptionalInt, withError } from '../validation/validation-errors';
import { EmptyAsAbsent, IsRfc3339Timestamp, IsTagList, MinTrimmedLength } from './book-validators';
import { PATH_ID } from '../common/path-params';

/**
 * HTTP input of the book area. The gateway validates these at the edge (query DTOs through the
 * global pipe, bodies with `validateInput`) and the service validates them again inside its
 * message classes, so both answer with the same codes.
 */

/** Stored collection statuses; on input `doing` means reading and `done` means read (docs/api/book.md, "Collections"). */
export const CollectionStatuses = ['wish', 'reading', 'read'] as const;
export type CollectionStatus = (typeof CollectionStatuses)[number];
export const CollectionStatusInputs = ['wish', 'reading', 'doing', 'read', 'done'] as const;

export function toCollectionStatus(input: string): CollectionStatus {
  if (input === 'doing') return 'reading';
  if (input === 'done') return 'read';
  return input as CollectionStatus;
}

export const AnnotationFormats = ['text', 'html'] as const;
export type AnnotationFormat = (typeof AnnotationFormats)[number];
export const AnnotationOrders = ['collect', 'rank', 'page'] as const;
export type AnnotationOrder = (typeof AnnotationOrders)[number];

/** The book area's limits (docs/api/book.md: "Collections", "Annotations", "Reviews", "Decisions"), in one place. */
export const BookLimits = {
  searchQuery: 200,
  comment: 350,
  annotationMinContent: 16,
  annotationMaxContent: 100_000,
  chapter: 100,
  maxPage: 999_999,
  reviewMinContent: 151,
  reviewMaxContent: 100_000,
  reviewTitle: 100,
} as const;

// ---- queries ----

export class BookSearchQuery {
  @IsOptional() @IsString() @MaxLength(BookLimits.searchQuery) q?: string;
  @IsOptional() @IsString() @MaxLength(100) tag?: string;
}

export class UserCollectionsQuery {
  /** The default, `all`, may also be sent: every status (docs/api/book.md, "GET /v2/book/user/:name/collections"). */
  @IsOptional() @IsIn([...CollectionStatusInputs, 'all']) status?: string;
  @IsOptional() @IsString() @MaxLength(100) tag?: string;
  @IsOptional() @IsRfc3339Timestamp() from?: string;
  @IsOptional() @IsRfc3339Timestamp() to?: string;
  @ToOptionalInt() @IsOptional() @IsInt() @Min(1) @Max(5) rating?: number;
}

export class CollectionLookupQuery {
  /** A user's uid or numeric id; absent means the caller. */
  @EmptyAsAbsent() @IsOptional() @IsString() @MaxLength(100) user_id?: string;
}

export class AnnotationReadQuery {
  @IsOptional() @IsIn(AnnotationFormats) format?: AnnotationFormat;
}

export class BookAnnotationsQuery extends AnnotationReadQuery {
  @IsOptional() @IsIn(AnnotationOrders) order?: AnnotationOrder;
  /** Only the annotations of this page. */
  @ToOptionalInt()
  @IsOptional()
  @IsInt(withError('invalid_page_number'))
  @Min(1, withError('invalid_page_number'))
  @Max(BookLimits.maxPage, withError('invalid_page_number'))
  page?: number;
}

// ---- bodies ----

/** POST and PUT /v2/book/:id/collection (PUT takes the same parameters and replaces the entry). */
export class CollectionInput {
  @IsNotEmpty() @IsIn(CollectionStatusInputs) status!: string;
  @IsOptional() @IsString() @IsTagList() @NoBannedWords() tags?: string;
  @IsOptional() @IsString() @MaxLength(BookLimits.comment, withError('comment_too_long')) @NoBannedWords() comment?: string;
  /** Only `private` (isPrivate) makes the item owner-only; any other value, however long, is public. */
  @IsOptional() @IsString() privacy?: string;
  @ToOptionalInt() @IsOptional() @IsInt() @Min(1) @Max(5) rating?: number;
}

/** POST /v2/book/:id/annotations and PUT /v2/book/annotation/:id; pictures travel as parts beside these fields. */
export class AnnotationInput {
  @IsDefined()
  @IsString()
  @MinTrimmedLength(BookLimits.annotationMinContent, withError('input_too_short'))
  @MaxLength(BookLimits.annotationMaxContent)
  @NoBannedWords()
  content!: string;

  @ToOptionalInt()
  @IsOptional()
  @IsInt(withError('invalid_page_number'))
  @Min(1, withError('invalid_page_number'))
  @Max(BookLimits.maxPage, withError('invalid_page_number'))
  page?: number;

  @EmptyAsAbsent() @IsOptional() @IsString() @MaxLength(BookLimits.chapter, withError('chapter_too_long')) @NoBannedWords() chapter?: string;
  /** Only `private` (isPrivate) makes the item owner-only; any other value, however long, is public. */
  @IsOptional() @IsString() privacy?: string;
}

/** PUT /v2/book/review/:id. */
export class ReviewUpdateInput {
  @IsDefined(withError('title_missing'))
  @IsString()
  @MinTrimmedLength(1, withError('title_missing'))
  @MaxLength(BookLimits.reviewTitle)
  @NoBannedWords()
  title!: string;

  @IsDefined()
  @IsString()
  @MinTrimmedLength(BookLimits.reviewMinContent, withError('review_content_short'))
  @MaxLength(BookLimits.reviewMaxContent)
  @NoBannedWords()
  content!: string;

  @ToOptionalInt() @IsOptional() @IsInt() @Min(1) @Max(5) rating?: number;
}

/** POST /v2/book/reviews. */
export class ReviewCreateInput extends ReviewUpdateInput {
  @IsNotEmpty() @IsString() @Matches(PATH_ID) book!: string;
}
