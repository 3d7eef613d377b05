import { ListEnvelope } from '../common/paging';
import { SimpleUser } from '../common/user';
import { CollectionStatus } from './book.inputs';

/** A book's rating out of 10 (docs/api/book.md): `average` has one decimal. */
export interface BookRating {
  max: number;
  numRaters: number;
  average: string;
  min: number;
}

/** One user's rating, 1 to 5, as collections and reviews show it. */
export interface UserRating {
  max: number;
  value: string;
  min: number;
}

/** A tag inside a Book. */
export interface BookTag {
  count: number;
  name: string;
}

/** The Tag resource of `/v2/book/:id/tags` and the user tag lists. */
export interface Tag {
  count: number;
  title: string;
}

export interface CurrentUserCollection {
  status: CollectionStatus;
  rating?: UserRating;
  updated: string;
  user_id: string;
  book_id: string;
  id: number;
}

export interface Book {
  id: string;
  isbn10: string;
  isbn13: string;
  title: string;
  origin_title: string;
  alt_title: string;
  subtitle: string;
  url: string;
  alt: string;
  image: string;
  images: { small: string; large: string; medium: string };
  author: string[];
  translator: string[];
  publisher: string;
  pubdate: string;
  rating: BookRating;
  tags: BookTag[];
  binding: string;
  price: string;
  series?: { id: string; title: string };
  pages: string;
  author_intro: string;
  summary: string;
  catalog: string;
  ebook_url?: string;
  ebook_price?: string;
  current_user_collection?: CurrentUserCollection;
}

export interface Collection {
  book: Book;
  book_id: string;
  comment: string;
  id: number;
  rating?: UserRating;
  status: CollectionStatus;
  tags: string[];
  updated: string;
  user_id: string;
}

export interface Annotation {
  id: string;
  book_id: string;
  book: Book;
  author_id: string;
  author_user: SimpleUser;
  chapter: string;
  page_no: number;
  /** 1 public, 2 private (docs/api/book.md). */
  privacy: number;
  abstract: string;
  content: string;
  abstract_photo: string;
  /** Picture number → address (signed for private annotations). */
  photos: Record<string, string>;
  last_photo: number;
  comments_count: number;
  hasmath: boolean;
  time: string;
}

export interface Review {
  id: number;
  title: string;
  alt: string;
  author: SimpleUser;
  book: Book;
  rating?: UserRating;
  votes: number;
  useless: number;
  comments: number;
  /** Abridged text; the create and update answers carry `content` instead. */
  summary?: string;
  content?: string;
  published: string;
  updated: string;
}

export type BookList = ListEnvelope<'books', Book>;
export type TagList = ListEnvelope<'tags', Tag>;
export type CollectionList = ListEnvelope<'collections', Collection>;
export type AnnotationList = ListEnvelope<'annotations', Annotation>;
export type ReviewList = ListEnvelope<'reviews', Review>;
