import { UserRating } from '@plaza/contracts';
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
