import { MovieCelebrity, MovieSubject, MovieTier, SimpleSubject } from '@plaza/contracts';

/** Fields docs/api/movie.md marks A ("Resources"): returned to the advance and premium tiers only. */
export const SUBJECT_ADVANCE_FIELDS: ReadonlySet<string> = new Set([
  'writers', 'website', 'imdb', 'pubdates', 'mainland_pubdate', 'pubdate', 'languages', 'durations',
  'trailer_urls', 'clip_urls', 'blooper_urls', 'photos', 'popular_reviews',
]);
export const CELEBRITY_ADVANCE_FIELDS: ReadonlySet<string> = new Set(['summary', 'website', 'birthday', 'professions', 'constellation', 'photos']);
export const SIMPLE_SUBJECT_ADVANCE_FIELDS: ReadonlySet<string> = new Set(['pubdates']);

export const seesAdvanceFields = (tier: MovieTier): boolean => tier !== 'basic';

function without<T extends object>(value: T, fields: ReadonlySet<string>): T {
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) if (!fields.has(key)) out[key] = v;
  return out as T;
}

/**
 * Everything is stored as the advance tier sees it (the richest view); a basic caller gets the
 * same object without the A fields.
 */
export function subjectForTier(subject: MovieSubject, tier: MovieTier): MovieSubject {
  return seesAdvanceFields(tier) ? subject : without(subject, SUBJECT_ADVANCE_FIELDS);
}

export function simpleSubjectForTier(subject: SimpleSubject, tier: MovieTier): SimpleSubject {
  return seesAdvanceFields(tier) ? subject : without(subject, SIMPLE_SUBJECT_ADVANCE_FIELDS);
}

export function celebrityForTier(celebrity: MovieCelebrity, tier: MovieTier): MovieCelebrity {
  if (seesAdvanceFields(tier)) return celebrity;
  const out = without(celebrity, CELEBRITY_ADVANCE_FIELDS);
  return { ...out, works: out.works.map((s) => simpleSubjectForTier(s, tier)) };
}

/** A list element holding a Simple Subject under `subject` (Box-Subject, Weekly-Subject, a work). */
export function withSubjectForTier<T extends { subject: SimpleSubject }>(item: T, tier: MovieTier): T {
  return seesAdvanceFields(tier) ? item : { ...item, subject: simpleSubjectForTier(item.subject, tier) };
}
