import { UserRating } from '@plaza/contracts';
import { tagKey } from '../books/book-view';
import type { AggregateDelta } from '../books/books.repository';

/** What one collection entry or review adds to its book: a rating (1-5) and tags. */
export interface Contribution {
  rating?: number | null;
  tags?: string[];
}

/**
 * The change of a book's users' aggregates when a contribution is replaced (`before` absent: a
 * new one; `after` absent: a removed one). A rating r counts as 2r out of 10 (docs/api/book.md).
 */
export function contributionDelta(before: Contribution | undefined, after: Contribution | undefined): AggregateDelta {
  const rated = (c: Contribution | undefined) => (c?.rating ? 1 : 0);
  const value = (c: Contribution | undefined) => (c?.rating ? 2 * c.rating : 0);
  const tags = new Map<string, number>();
  for (const name of new Set(before?.tags ?? [])) tags.set(name, (tags.get(name) ?? 0) - 1);
  for (const name of new Set(after?.tags ?? [])) tags.set(name, (tags.get(name) ?? 0) + 1);
  for (const [name, change] of tags) if (change === 0) tags.delete(name);
  return { raters: rated(after) - rated(before), ratingSum: value(after) - value(before), tags };
}

export function isEmptyDelta(delta: AggregateDelta): boolean {
  return delta.raters === 0 && delta.ratingSum === 0 && delta.tags.size === 0;
}

/** A user's own rating as collections and reviews show it. */
export function userRating(rating: number | null | undefined): UserRating | undefined {
  return rating ? { max: 5, value: String(rating), min: 0 } : undefined;
}

/** The users' part of a book's rating and tags (BookDocument.user_rating, user_tags). */
export interface UserAggregates {
  num: number;
  sum: number;
  /** tagKey(name) → count. */
  tags: Record<string, number>;
}

/** A collection entry or a review as its book's aggregates count it. */
export interface BookContribution extends Contribution {
  book_id: string;
}

export function noUserAggregates(): UserAggregates {
  return { num: 0, sum: 0, tags: {} };
}

/**
 * Each book's aggregates from its entries and reviews: a rating r counts 2r out of 10, an entry's
 * tags once each (a review has none). Books without a contribution are left out.
 */
export function aggregateContributions(contributions: Iterable<BookContribution>): Map<string, UserAggregates> {
  const byBook = new Map<string, UserAggregates>();
  for (const item of contributions) {
    let a = byBook.get(item.book_id);
    if (!a) byBook.set(item.book_id, (a = noUserAggregates()));
    if (item.rating) {
      a.num += 1;
      a.sum += 2 * item.rating;
    }
    for (const name of new Set(item.tags ?? [])) a.tags[tagKey(name)] = (a.tags[tagKey(name)] ?? 0) + 1;
  }
  return byBook;
}

/** `aggregates` moved by `delta` (a new object); a tag whose count falls to 0 is dropped. */
export function movedBy(aggregates: UserAggregates, delta: AggregateDelta): UserAggregates {
  const tags = { ...aggregates.tags };
  for (const [name, change] of delta.tags) {
    const key = tagKey(name);
    const count = (tags[key] ?? 0) + change;
    if (count > 0) tags[key] = count;
    else delete tags[key];
  }
  return { num: aggregates.num + delta.raters, sum: aggregates.sum + delta.ratingSum, tags };
}
