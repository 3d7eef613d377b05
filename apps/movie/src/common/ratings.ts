import { MovieRating, SimpleRating } from '@plaza/contracts';

/** Simple Rating out of 10: `average` with one decimal, `stars` = round(average) x 5 (9.6 -> 50, 7.3 -> 35). */
export function simpleRating(average: number | undefined): SimpleRating {
  const value = Math.min(10, Math.max(0, Number.isFinite(average) ? (average as number) : 0));
  const rounded = Math.round(value * 10) / 10;
  return { min: 0, max: 10, average: rounded, stars: Math.round(rounded) * 5 };
}

/** Rating of a review or comment: 1-5, or 0 when the author gave none. */
export function userRating(value: number | undefined): MovieRating {
  return { min: 0, max: 5, value: value ?? 0 };
}
