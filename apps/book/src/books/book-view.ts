import { Book, BookRating, BookTag, CurrentUserCollection, Tag } from '@plaza/contracts';
import { BookDocument, BookView, StoredTag } from './book.schema';

/** At most this many tags are shown for a book (docs/api/book.md, "Decisions", 2). */
export const MAX_BOOK_TAGS = 50;

/** Users' tag counts are stored under field names made from the tag; any character may be in a tag. */
export function tagKey(name: string): string {
  return `t${Buffer.from(name, 'utf8').toString('base64url')}`;
}

export function tagFromKey(key: string): string {
  return Buffer.from(key.slice(1), 'base64url').toString('utf8');
}

/** `tag=` search compares tags case-insensitively, full-width and half-width alike. */
export function tagSearchKey(name: string): string {
  return name.normalize('NFKC').trim().toLowerCase();
}

/**
 * The catalogue's tags plus the users' counts, biggest first; a tie keeps the catalogue's order,
 * then the order in which users first used the tags. Tags whose count fell to 0 are left out.
 */
export function mergeTags(base: StoredTag[] | undefined, user: Record<string, number> | undefined, limit = MAX_BOOK_TAGS): BookTag[] {
  const counts = new Map<string, number>();
  for (const tag of base ?? []) counts.set(tag.name, (counts.get(tag.name) ?? 0) + Math.max(0, tag.count));
  for (const [key, count] of Object.entries(user ?? {})) {
    const name = tagFromKey(key);
    counts.set(name, (counts.get(name) ?? 0) + count);
  }
  return [...counts.entries()]
    .filter(([, count]) => count > 0)
    .map(([name, count], order) => ({ name, count, order }))
    .sort((a, b) => b.count - a.count || a.order - b.order)
    .slice(0, limit)
    .map(({ name, count }) => ({ count, name }));
}

export function toTagResource(tag: BookTag): Tag {
  return { count: tag.count, title: tag.name };
}

/** Raters of the catalogue plus users' ratings (each r of 1-5 counted as 2r out of 10), one decimal. */
export function bookRating(base: { num: number; average: number } | undefined, user: { num: number; sum: number } | undefined): BookRating {
  const baseNum = Math.max(0, base?.num ?? 0);
  const userNum = Math.max(0, user?.num ?? 0);
  const numRaters = baseNum + userNum;
  const total = baseNum * (base?.average ?? 0) + (userNum > 0 ? user?.sum ?? 0 : 0);
  const average = numRaters > 0 ? Math.round((total / numRaters) * 10) / 10 : 0;
  return { max: 10, numRaters, average: average.toFixed(1), min: 0 };
}

export function raterCount(book: Pick<BookDocument, 'base_rating' | 'user_rating'>): number {
  return Math.max(0, book.base_rating?.num ?? 0) + Math.max(0, book.user_rating?.num ?? 0);
}

export interface BookAddresses {
  publicApiUrl: string;
  publicWebUrl: string;
}

export function bookUrl(id: string, addresses: BookAddresses): string {
  return `${addresses.publicApiUrl.replace(/\/$/, '')}/v2/book/${id}`;
}

export function bookAlt(id: string, addresses: BookAddresses): string {
  return `${addresses.publicWebUrl.replace(/\/$/, '')}/book/subject/${id}/`;
}

/** A stored book as the API shows it (docs/api/book.md, "Resources"); `current` is the caller's own entry, if any. */
export function presentBook(doc: BookView, addresses: BookAddresses, current?: CurrentUserCollection): Book {
  const images = doc.images ?? { small: '', large: '', medium: '' };
  const book: Book = {
    id: doc._id,
    isbn10: doc.isbn10 ?? '',
    isbn13: doc.isbn13 ?? '',
    title: doc.title,
    origin_title: doc.origin_title ?? '',
    alt_title: doc.alt_title ?? '',
    subtitle: doc.subtitle ?? '',
    url: doc.url || bookUrl(doc._id, addresses),
    alt: doc.alt || bookAlt(doc._id, addresses),
    image: doc.image || images.medium || '',
    images: { small: images.small ?? '', large: images.large ?? '', medium: images.medium ?? '' },
    author: doc.author ?? [],
    translator: doc.translator ?? [],
    publisher: doc.publisher ?? '',
    pubdate: doc.pubdate ?? '',
    rating: bookRating(doc.base_rating, doc.user_rating),
    tags: mergeTags(doc.base_tags, doc.user_tags),
    binding: doc.binding ?? '',
    price: doc.price ?? '',
    ...(doc.series ? { series: { id: doc.series.id, title: doc.series.title ?? '' } } : {}),
    pages: doc.pages ?? '',
    author_intro: doc.author_intro ?? '',
    summary: doc.summary ?? '',
    catalog: doc.catalog ?? '',
    ...(doc.ebook_url ? { ebook_url: doc.ebook_url, ebook_price: doc.ebook_price ?? '' } : {}),
  };
  if (current) book.current_user_collection = current;
  return book;
}

/** Response-cache tags of a book (endpoint table): its id, both ISBNs as given, its series. */
export function bookCacheTags(doc: Pick<BookDocument, '_id' | 'isbn10' | 'isbn13' | 'series'>): string[] {
  const tags = [`book:${doc._id}`];
  for (const isbn of [doc.isbn13, doc.isbn10]) if (isbn) tags.push(`isbn:${isbn}`);
  if (doc.series?.id) tags.push(`series:${doc.series.id}`);
  return tags;
}
