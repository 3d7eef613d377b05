import { Transform } from 'class-transformer';
import { IsDefined, IsIn, IsNotEmpty, IsOptional, IsString, MaxLength, ValidateBy, ValidationOptions } from 'class-validator';
import { EVENT_TYPE_FILTERS } from './event-categories';

/** `day_type` of GET /v2/event/list; the windows are defined in docs/api/event.md. */
export const EVENT_DAY_TYPES = ['today', 'tomorrow', 'weekend', 'week', 'future'] as const;
export type EventDayType = (typeof EVENT_DAY_TYPES)[number];

/** `status` of the user event lists (docs/api/event.md, "GET /v2/event/user_participated/:id"). */
export const EVENT_STATUSES = ['ongoing', 'expired'] as const;
export type EventStatus = (typeof EVENT_STATUSES)[number];

/** An enum-like query value: trimmed, lower-cased; an empty value counts as absent. */
const Keyword = () =>
  Transform(({ value }) => {
    if (typeof value !== 'string') return value;
    const v = value.trim().toLowerCase();
    return v === '' ? undefined : v;
  });

const daysInMonth = (year: number, month: number) =>
  month === 2 ? (year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28) : [4, 6, 9, 11].includes(month) ? 30 : 31;

/** `%Y-%m-%d` naming a day that exists (2024-02-29 yes, 2023-02-29 and 2024-1-5 no). */
export function isCalendarDate(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!m) return false;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  return year >= 1 && month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month);
}

export function IsCalendarDate(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    { name: 'isCalendarDate', validator: { validate: (value) => isCalendarDate(value), defaultMessage: () => '$property must be a date %Y-%m-%d' } },
    options,
  );
}

/** Query of GET /v2/event/list. */
export class EventListQuery {
  /**
   * A city id (docs/api/event.md, "GET /v2/event/list"); a city uid (`beijing`) or Chinese name (`北京`) is accepted too. Required
   * (400/1002); a blank one counts as absent, as with the other parameters here.
   */
  @Transform(({ value }) => (typeof value === 'string' ? value.trim() : value))
  @IsDefined() @IsNotEmpty() @IsString() @MaxLength(100) loc!: string;
  /** Default `future`. */
  @IsOptional() @Keyword() @IsIn(EVENT_DAY_TYPES) day_type?: EventDayType;
  /** A type number 10-18 or word, `others` or `all` (the default). */
  @IsOptional() @Keyword() @IsIn(EVENT_TYPE_FILTERS) type?: string;
}

/** The longest `q` of GET /v2/event/search (as movie search's). */
export const EVENT_QUERY_MAX_LENGTH = 100;

/** Query of GET /v2/event/search (docs/api/event.md): `q` as book search reads it, the list's filters. */
export class EventSearchQuery {
  /** Required (400/1002 when missing, empty or blank); matched by libs/search terms, never as a pattern. */
  @Transform(({ value }) => (typeof value === 'string' ? value.trim() : value))
  @IsDefined() @IsNotEmpty() @IsString() @MaxLength(EVENT_QUERY_MAX_LENGTH) q!: string;
  /** A city id, uid or Chinese name, as in the list; absent (or blank): every city. */
  @Transform(({ value }) => (typeof value === 'string' ? value.trim() || undefined : value))
  @IsOptional() @IsString() @MaxLength(100) loc?: string;
  /** Default `future`. */
  @IsOptional() @Keyword() @IsIn(EVENT_DAY_TYPES) day_type?: EventDayType;
  /** A type number 10-18 or word, `others` or `all` (the default). */
  @IsOptional() @Keyword() @IsIn(EVENT_TYPE_FILTERS) type?: string;
}

/** Query of GET /v2/event/user_participated/:id and user_wished/:id. */
export class UserEventsQuery {
  /** Absent: every event, ended or not. */
  @IsOptional() @Keyword() @IsIn(EVENT_STATUSES) status?: EventStatus;
}

/** Body of POST /v2/event/:id/participants. */
export class ParticipateBody {
  /** The day the user will come; absent (or empty) means undecided. */
  @IsOptional()
  @Transform(({ value }) => (value === '' ? undefined : value))
  @IsCalendarDate()
  participate_date?: string;
}
