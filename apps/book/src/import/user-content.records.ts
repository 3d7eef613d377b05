import { BookLimits, CollectionStatusInputs, IMPORTED_CONTENT_ID, IsTagList, ToBoolean } from '@plaza/contracts';
import { Transform, Type } from 'class-transformer';
import {
  IsBoolean, IsDefined, IsIn, IsInt, IsOptional, IsString, Matches, Max, MaxLength, Min, MinLength, ValidateIf,
  ValidateNested,
} from 'class-validator';

/**
 * Import records of users' book content (docs/api/book.md, "Import of users' content"): a
 * collection entry, a review and an annotation as the API shows them, ids kept. Ids are digits, at
 * most 15 (a number or a string), so the id sequences can be moved past them exactly.
 */
export const RECORD_ID = IMPORTED_CONTENT_ID;
const idMessage = { message: '$property must be at most 15 digits' };
const ID = /^[0-9]{1,20}$/;
const ToText = () => Transform(({ value }) => (typeof value === 'number' && Number.isInteger(value) ? String(value) : value));
/** `{value: 4}` (the API's Rating) or `4`; 0, null or absent: unrated. */
const ToRating = () => Transform(({ value }) => {
  const v = value && typeof value === 'object' && 'value' in value ? (value as { value: unknown }).value : value;
  if (v === 0 || v === null || v === '' || v === '0') return undefined;
  return typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : v;
});

export class UserRefInput {
  @ValidateIf((o: UserRefInput) => o.uid === undefined) @IsDefined({ message: 'a user needs an id or a uid' }) @Matches(ID) id?: string;
  @IsOptional() @Matches(/^[A-Za-z0-9_.-]{1,64}$/) uid?: string;
}

/** `collection`: a user's entry for a book, keyed by user and book (its `id` kept). */
export class CollectionImportRecord {
  @ToText() @Matches(RECORD_ID, idMessage) id!: string;
  @ValidateIf((o: CollectionImportRecord) => o.user === undefined) @IsDefined({ message: 'user or user_id is required' }) @Matches(ID) user_id?: string;
  @ValidateIf((o: CollectionImportRecord) => o.user_id === undefined) @IsDefined({ message: 'user or user_id is required' }) @ValidateNested() @Type(() => UserRefInput) user?: UserRefInput;
  @ToText() @Matches(ID) book_id!: string;
  @IsIn(CollectionStatusInputs) status!: string;
  @ToRating() @IsOptional() @IsInt() @Min(1) @Max(5) rating?: number;
  /** An array of tags, or the API's text form (blanks or commas between). */
  @IsOptional() @Transform(({ value }) => (Array.isArray(value) ? value.join(' ') : value)) @IsString() @IsTagList() tags?: string;
  @IsOptional() @IsString() @MaxLength(BookLimits.comment) comment?: string;
  /** `private` or `public` (the API's `privacy`); `private: true` is read the same. */
  @IsOptional() @IsIn(['private', 'public']) privacy?: string;
  @IsOptional() @ToBoolean() @IsBoolean() private?: boolean;
  /** `yyyy-MM-dd HH:mm:ss` in SERVICE_TIMEZONE, or ISO 8601. */
  @IsString() @MaxLength(40) updated!: string;
  @IsOptional() @IsString() @MaxLength(40) created?: string;
}

abstract class Authored {
  @ValidateIf((o: Authored) => o.author === undefined) @IsDefined({ message: 'author or author_id is required' }) @Matches(ID) author_id?: string;
  @ValidateIf((o: Authored) => o.author_id === undefined) @IsDefined({ message: 'author or author_id is required' }) @ValidateNested() @Type(() => UserRefInput) author?: UserRefInput;
}

/** `book_review`: a review of a loaded book. */
export class BookReviewImportRecord extends Authored {
  @ToText() @Matches(RECORD_ID, idMessage) id!: string;
  @ToText() @Matches(ID) book_id!: string;
  @IsString() @MinLength(1) @MaxLength(BookLimits.reviewTitle) title!: string;
  @IsString() @MinLength(1) @MaxLength(BookLimits.reviewMaxContent) content!: string;
  @ToRating() @IsOptional() @IsInt() @Min(1) @Max(5) rating?: number;
  @IsString() @MaxLength(40) published!: string;
  @IsOptional() @IsString() @MaxLength(40) updated?: string;
  @IsOptional() @IsInt() @Min(0) votes?: number;
  @IsOptional() @IsInt() @Min(0) useless?: number;
  @IsOptional() @IsInt() @Min(0) comments?: number;
}

/** `annotation`: a reading annotation of a loaded book, placed by `page_no` or `chapter`. */
export class AnnotationImportRecord extends Authored {
  @ToText() @Matches(RECORD_ID, idMessage) id!: string;
  @ToText() @Matches(ID) book_id!: string;
  @IsString() @MinLength(1) @MaxLength(BookLimits.annotationMaxContent) content!: string;
  @ValidateIf((o: AnnotationImportRecord) => o.chapter === undefined) @IsDefined({ message: 'page_no or chapter is required' }) @IsInt() @Min(1) @Max(BookLimits.maxPage) page_no?: number;
  @IsOptional() @IsString() @MaxLength(BookLimits.chapter) chapter?: string;
  @IsOptional() @IsIn(['private', 'public']) privacy?: string;
  @IsOptional() @IsInt() @Min(0) comments_count?: number;
  @IsString() @MaxLength(40) created!: string;
  @IsOptional() @IsString() @MaxLength(40) updated?: string;
  /**
   * No pictures (absent or `[]`), or an export archive's (docs/api/export.md): `{"1": <the picture
   * the importer stored from pictures/book-….png>}`; checked by the importer of the kind.
   */
  @IsOptional() photos?: unknown;
}
