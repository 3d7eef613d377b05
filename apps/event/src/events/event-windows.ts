import { EventDayType, EventStatus } from '@plaza/contracts';
import { parseZonedTimestamp, zonedParts } from '@plaza/platform';

/** A time window [from, to); `to` undefined is open-ended. */
export interface TimeWindow {
  from: Date;
  to?: Date;
}

/** A calendar day, as wall-clock numbers in some time zone. */
interface CalendarDay {
  year: number;
  month: number;
  day: number;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** The calendar day `days` after `day` (month and year ends handled by Date.UTC). */
function addDays(day: CalendarDay, days: number): CalendarDay {
  const d = new Date(Date.UTC(day.year, day.month - 1, day.day + days));
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() };
}

/** 0 Sunday ... 6 Saturday. */
function weekday(day: CalendarDay): number {
  return new Date(Date.UTC(day.year, day.month - 1, day.day)).getUTCDay();
}

/** The instant a calendar day begins in `timeZone` (00:00 wall clock; DST-safe through parseZonedTimestamp). */
function startOf(day: CalendarDay, timeZone: string): Date {
  const instant = parseZonedTimestamp(`${day.year}-${pad(day.month)}-${pad(day.day)} 00:00:00`, timeZone);
  if (!instant) throw new Error(`cannot place ${day.year}-${day.month}-${day.day} in ${timeZone}`);
  return instant;
}

/**
 * The window of a `day_type` (docs/api/event.md), counted in `timeZone`:
 * - today: [now, the next midnight)
 * - tomorrow: the whole next day
 * - weekend: the coming Saturday 00:00 (or now, during the weekend) to Monday 00:00
 * - week: [now, the midnight that ends the sixth day after today)
 * - future: [now, open)
 */
export function dayWindow(dayType: EventDayType, now: Date, timeZone: string): TimeWindow {
  const today: CalendarDay = zonedParts(now, timeZone);
  switch (dayType) {
    case 'today':
      return { from: now, to: startOf(addDays(today, 1), timeZone) };
    case 'tomorrow':
      return { from: startOf(addDays(today, 1), timeZone), to: startOf(addDays(today, 2), timeZone) };
    case 'weekend': {
      const wd = weekday(today);
      const untilMonday = wd === 0 ? 1 : 8 - wd; // Sunday → 1 day, Saturday → 2, Monday → 7, Friday → 3
      const monday = startOf(addDays(today, untilMonday), timeZone);
      const inWeekend = wd === 0 || wd === 6;
      return { from: inWeekend ? now : startOf(addDays(today, 6 - wd), timeZone), to: monday };
    }
    case 'week':
      return { from: now, to: startOf(addDays(today, 7), timeZone) };
    case 'future':
      return { from: now };
  }
}

/**
 * An event [begin, end] is in a window when it begins before the window ends and ends after it
 * begins; an event that has ended by `now` is never in one.
 */
export function overlaps(event: { begin: Date; end: Date }, window: TimeWindow, now: Date): boolean {
  if (event.end.getTime() <= now.getTime()) return false;
  if (event.end.getTime() <= window.from.getTime()) return false;
  return window.to === undefined || event.begin.getTime() < window.to.getTime();
}

/** `ongoing`: not yet ended (upcoming included); `expired`: ended. */
export function hasStatus(event: { end: Date }, status: EventStatus, now: Date): boolean {
  const ended = event.end.getTime() <= now.getTime();
  return status === 'expired' ? ended : !ended;
}
