/** The caps of docs/api/movie.md ("Resources"): records may hold more; output is cut to these. */
export const Caps = {
  casts: 4,
  genres: 3,
  photos: 10,
  popularReviews: 10,
  videoUrls: 4,
  celebrityWorks: 5,
  celebrityPhotos: 10,
  reviewSummary: 100,
  commentContent: 140,
  basicSearchTotal: 20,
} as const;

/** The first `max` characters (code points, so a Chinese text or an emoji is never split in half). */
export function cutText(text: string, max: number): string {
  if (text.length <= max) return text;
  const chars = Array.from(text);
  return chars.length <= max ? text : chars.slice(0, max).join('');
}
