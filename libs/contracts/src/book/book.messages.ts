import { Type } from 'class-transformer';
import { IsArray, IsDefined, IsString, Matches, MaxLength, ValidateNested } from 'class-validator';
import { PageRequest } from '../common/paging';
import { PictureRef } from '../common/picture';
import { Caller } from '../messaging/caller';
import { defineMessage } from '../messaging/define-message';
import {
  AnnotationInput, AnnotationReadQuery, BookAnnotationsQuery, BookSearchQuery, CollectionInput, CollectionLookupQuery,
  ReviewCreateInput, ReviewUpdateInput, UserCollectionsQuery,
} from './book.inputs';
import { Annotation, AnnotationList, Book, BookList, Collection, CollectionList, Review, ReviewList, TagList } from './book.types';
import { PATH_ID, PATH_NAME } from '../common/path-params';

// Path ids and users (`:name`: uid or numeric id) are checked again as the router matched them (PATH_ID, PATH_NAME).

class WithCaller {
  @ValidateNested() @Type(() => Caller) caller!: Caller;
}

class WithPage extends WithCaller {
  @ValidateNested() @Type(() => PageRequest) page!: PageRequest;
}

export class BookIdRequest extends WithCaller {
  @Matches(PATH_ID) id!: string;
}

export class BookByIsbnRequest extends WithCaller {
  @IsString() @MaxLength(100) isbn!: string;
}

export class BookSearchRequest extends WithPage {
  @ValidateNested() @Type(() => BookSearchQuery) query!: BookSearchQuery;
}

export class BookTagsRequest extends WithPage {
  @Matches(PATH_ID) id!: string;
}

export class SeriesBooksRequest extends WithPage {
  @Matches(PATH_ID) id!: string;
}

export class UserTagsRequest extends WithPage {
  @Matches(PATH_NAME) user!: string;
}

export class UserCollectionsRequest extends WithPage {
  @Matches(PATH_NAME) user!: string;
  @ValidateNested() @Type(() => UserCollectionsQuery) query!: UserCollectionsQuery;
}

export class CollectionGetRequest extends WithCaller {
  @Matches(PATH_ID) bookId!: string;
  @ValidateNested() @Type(() => CollectionLookupQuery) query!: CollectionLookupQuery;
}

export class CollectionWriteRequest extends WithCaller {
  @Matches(PATH_ID) bookId!: string;
  @ValidateNested() @Type(() => CollectionInput) @IsDefined() input!: CollectionInput;
}

export class CollectionDeleteRequest extends WithCaller {
  @Matches(PATH_ID) bookId!: string;
}

export class UserAnnotationsRequest extends WithPage {
  @Matches(PATH_NAME) user!: string;
  @ValidateNested() @Type(() => AnnotationReadQuery) query!: AnnotationReadQuery;
}

export class BookAnnotationsRequest extends WithPage {
  @Matches(PATH_ID) bookId!: string;
  @ValidateNested() @Type(() => BookAnnotationsQuery) query!: BookAnnotationsQuery;
}

export class AnnotationGetRequest extends WithCaller {
  @Matches(PATH_ID) id!: string;
  @ValidateNested() @Type(() => AnnotationReadQuery) query!: AnnotationReadQuery;
}

export class AnnotationCreateRequest extends WithCaller {
  @Matches(PATH_ID) bookId!: string;
  @ValidateNested() @Type(() => AnnotationInput) @IsDefined() input!: AnnotationInput;
  /** Pictures the gateway stored (staged) for this write. */
  @IsArray() @ValidateNested({ each: true }) @Type(() => PictureRef) pictures!: PictureRef[];
}

export class AnnotationUpdateRequest extends WithCaller {
  @Matches(PATH_ID) id!: string;
  @ValidateNested() @Type(() => AnnotationInput) @IsDefined() input!: AnnotationInput;
  @IsArray() @ValidateNested({ each: true }) @Type(() => PictureRef) pictures!: PictureRef[];
}

export class AnnotationDeleteRequest extends WithCaller {
  @Matches(PATH_ID) id!: string;
}

export class ReviewCreateRequest extends WithCaller {
  @ValidateNested() @Type(() => ReviewCreateInput) @IsDefined() input!: ReviewCreateInput;
}

export class ReviewUpdateRequest extends WithCaller {
  @Matches(PATH_ID) id!: string;
  @ValidateNested() @Type(() => ReviewUpdateInput) @IsDefined() input!: ReviewUpdateInput;
}

export class ReviewDeleteRequest extends WithCaller {
  @Matches(PATH_ID) id!: string;
}

/** One review with its whole `content` (the web page of its `alt`, docs/api/web.md). */
export class ReviewGetRequest extends WithCaller {
  @Matches(PATH_ID) id!: string;
}

/** A book's newest reviews, with their abridged `summary` (the book's web page). */
export class BookReviewsRequest extends WithPage {
  @Matches(PATH_ID) id!: string;
}

/** Request/reply subjects of the book service (`book.v1.<resource>.<action>`). */
export const BookMessages = {
  getBook: defineMessage<BookIdRequest, Book>('book.v1.book.get', BookIdRequest),
  getBookByIsbn: defineMessage<BookByIsbnRequest, Book>('book.v1.book.get-by-isbn', BookByIsbnRequest),
  search: defineMessage<BookSearchRequest, BookList>('book.v1.book.search', BookSearchRequest),
  bookTags: defineMessage<BookTagsRequest, TagList>('book.v1.book.tags', BookTagsRequest),
  seriesBooks: defineMessage<SeriesBooksRequest, BookList>('book.v1.series.books', SeriesBooksRequest),

  userTags: defineMessage<UserTagsRequest, TagList>('book.v1.user.tags', UserTagsRequest),
  userCollections: defineMessage<UserCollectionsRequest, CollectionList>('book.v1.collection.list-by-user', UserCollectionsRequest),
  getCollection: defineMessage<CollectionGetRequest, Collection>('book.v1.collection.get', CollectionGetRequest),
  createCollection: defineMessage<CollectionWriteRequest, Collection>('book.v1.collection.create', CollectionWriteRequest),
  updateCollection: defineMessage<CollectionWriteRequest, Collection>('book.v1.collection.update', CollectionWriteRequest),
  deleteCollection: defineMessage<CollectionDeleteRequest, Record<string, never>>('book.v1.collection.delete', CollectionDeleteRequest),

  userAnnotations: defineMessage<UserAnnotationsRequest, AnnotationList>('book.v1.annotation.list-by-user', UserAnnotationsRequest),
  bookAnnotations: defineMessage<BookAnnotationsRequest, AnnotationList>('book.v1.annotation.list-by-book', BookAnnotationsRequest),
  getAnnotation: defineMessage<AnnotationGetRequest, Annotation>('book.v1.annotation.get', AnnotationGetRequest),
  createAnnotation: defineMessage<AnnotationCreateRequest, Annotation>('book.v1.annotation.create', AnnotationCreateRequest),
  updateAnnotation: defineMessage<AnnotationUpdateRequest, Annotation>('book.v1.annotation.update', AnnotationUpdateRequest),
  deleteAnnotation: defineMessage<AnnotationDeleteRequest, Record<string, never>>('book.v1.annotation.delete', AnnotationDeleteRequest),

  createReview: defineMessage<ReviewCreateRequest, Review>('book.v1.review.create', ReviewCreateRequest),
  updateReview: defineMessage<ReviewUpdateRequest, Review>('book.v1.review.update', ReviewUpdateRequest),
  deleteReview: defineMessage<ReviewDeleteRequest, Record<string, never>>('book.v1.review.delete', ReviewDeleteRequest),
  getReview: defineMessage<ReviewGetRequest, Review>('book.v1.review.get', ReviewGetRequest),
  bookReviews: defineMessage<BookReviewsRequest, ReviewList>('book.v1.review.list-by-book', BookReviewsRequest),
} as const;

/** The picture area name of annotations (object-store keys `book-<hex>`). */
export const BOOK_PICTURE_AREA = 'book';
