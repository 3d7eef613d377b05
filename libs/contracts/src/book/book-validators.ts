import { Transform } from 'class-transformer';
import { registerDecorator, ValidationArguments, ValidationOptions } from 'class-validator';
import { ApiError } from '../errors/api-error';

/** Characters as a reader counts them (code points, so an emoji is one). */
export function charCount(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}

/** At least `min` characters once surrounding blanks are removed (blank text is "too short"). */
export function MinTrimmedLength(min: number, options?: ValidationOptions): PropertyDecorator {
  return (object: object, propertyName: string | symbol) =>
    registerDecorator({
      name: 'minTrimmedLength',
      target: object.constructor,
      propertyName: propertyName as string,
      constraints: [min],
      options,
      validator: {
        validate: (value: unknown) => typeof value === 'string' && charCount(value.trim()) >= min,
        defaultMessage: (args: ValidationArguments) => `${args.property} must have at least ${min} characters`,
      },
    });
}

/** Form clients send `chapter=` for "no chapter": an empty or blank text counts as absent. */
export function EmptyAsAbsent(): PropertyDecorator {
  return Transform(({ value }) => (typeof value === 'string' && value.trim() === '' ? undefined : value));
}

/** Most tags one collection entry may carry, and the longest tag. */
export const MAX_COLLECTION_TAGS = 20;
export const MAX_TAG_LENGTH = 50;

/**
 * Splits the `tags` parameter ("tags separated by spaces"; commas are accepted too) into distinct
 * tags, each NFKC-normalised so full-width and half-width forms are one tag.
 */
export function parseTags(text: string | undefined): string[] {
  if (!text) return [];
  const tags = text
    .normalize('NFKC')
    .split(/[\s,，、]+/u)
    .map((t) => t.trim())
    .filter(Boolean);
  return [...new Set(tags)];
}

/** The `tags` parameter: at most MAX_COLLECTION_TAGS tags of at most MAX_TAG_LENGTH characters. */
export function IsTagList(options?: ValidationOptions): PropertyDecorator {
  return (object: object, propertyName: string | symbol) =>
    registerDecorator({
      name: 'isTagList',
      target: object.constructor,
      propertyName: propertyName as string,
      options,
      validator: {
        validate: (value: unknown) => {
          if (typeof value !== 'string') return false;
          const tags = parseTags(value);
          return tags.length <= MAX_COLLECTION_TAGS && tags.every((t) => charCount(t) <= MAX_TAG_LENGTH);
        },
        defaultMessage: () => `tags: at most ${MAX_COLLECTION_TAGS} tags of at most ${MAX_TAG_LENGTH} characters`,
      },
    });
}

/** An RFC 3339 date-time (`2024-05-01T08:00:00Z`, `2024-05-01T16:00:00+08:00`) that names a real instant. */
const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?([Zz]|[+-](\d{2}):(\d{2}))$/;

export function parseRfc3339(text: string): Date | undefined {
  const m = RFC3339.exec(text);
  if (!m) return undefined;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number);
  // Date would roll 2024-02-30 over to March: the calendar date must exist as written
  const calendar = new Date(Date.UTC(year, month - 1, day));
  if (calendar.getUTCMonth() !== month - 1 || calendar.getUTCDate() !== day) return undefined;
  if (hour > 23 || minute > 59 || second > 59 || (m[9] !== undefined && (Number(m[9]) > 23 || Number(m[10]) > 59))) return undefined;
  const date = new Date(text.replace(' ', 'T'));
  return Number.isNaN(date.getTime()) ? undefined : date;
}

export function IsRfc3339Timestamp(options?: ValidationOptions): PropertyDecorator {
  return (object: object, propertyName: string | symbol) =>
    registerDecorator({
      name: 'isRfc3339Timestamp',
      target: object.constructor,
      propertyName: propertyName as string,
      options,
      validator: {
        validate: (value: unknown) => typeof value === 'string' && parseRfc3339(value) !== undefined,
        defaultMessage: (args: ValidationArguments) => `${args.property} must be an RFC 3339 timestamp`,
      },
    });
}

/**
 * Annotations are placed by `page` or by `chapter`, never both (docs/api/book.md,
 * "POST /v2/book/:id/annotations": neither is 400/1002, both 400/1016). A cross-field rule, so it is a function the
 * gateway and the service both call after validating the fields one by one.
 */
export function checkAnnotationPlacement(input: { page?: number; chapter?: string }): void {
  const hasPage = input.page !== undefined;
  const hasChapter = input.chapter !== undefined;
  if (!hasPage && !hasChapter) throw new ApiError('missing_args', 'page or chapter is required');
  if (hasPage && hasChapter) throw new ApiError('invalid_args', 'give page or chapter, not both');
}

/** `privacy=private` (and the integer 2 that annotations show) means owner only; anything else is public. */
export function isPrivate(privacy: string | undefined): boolean {
  if (privacy === undefined) return false;
  const value = privacy.trim().toLowerCase();
  return value === 'private' || value === '2';
}
