const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric', month: '2-digit', day: '2-digit',
      hour: '2-digit', minute: '2-digit', second: '2-digit',
      hourCycle: 'h23',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

type WallClock = { year: number; month: number; day: number; hour: number; minute: number; second: number };

/** What ICU says the wall clock shows: exact for every zone and instant, and about 5 µs a call. */
function intlParts(date: Date, timeZone: string): WallClock {
  const parts = Object.fromEntries(formatterFor(timeZone).formatToParts(date).map((p) => [p.type, p.value]));
  return {
    year: Number(parts.year), month: Number(parts.month), day: Number(parts.day),
    hour: Number(parts.hour), minute: Number(parts.minute), second: Number(parts.second),
  };
}

const HOUR_MS = 3_600_000;
/** Hours remembered per zone before the memory starts over (a few hundred KiB at most). */
const MAX_HOURS_PER_ZONE = 10_000;
/** Per zone, per UTC hour: the zone's offset from UTC in ms throughout that hour, or null when it changes within it. */
const offsetsByHour = new Map<string, Map<number, number | null>>();

function intlOffsetMs(ms: number, timeZone: string): number {
  const p = intlParts(new Date(ms), timeZone);
  return Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second) - Math.floor(ms / 1000) * 1000;
}

/**
 * The zone's offset at `ms` when it is the same at both ends of that UTC hour (a zone changes its
 * offset at most once in an hour), asked of ICU once per hour; undefined within an hour of change.
 */
function cachedOffsetMs(ms: number, timeZone: string): number | undefined {
  const hour = Math.floor(ms / HOUR_MS);
  let zone = offsetsByHour.get(timeZone);
  if (!zone) offsetsByHour.set(timeZone, (zone = new Map()));
  let offset = zone.get(hour);
  if (offset === undefined) {
    const start = intlOffsetMs(hour * HOUR_MS, timeZone);
    offset = start === intlOffsetMs((hour + 1) * HOUR_MS - 1000, timeZone) ? start : null;
    if (zone.size >= MAX_HOURS_PER_ZONE) zone.clear();
    zone.set(hour, offset);
  }
  return offset ?? undefined;
}

/**
 * Parts of an instant as a wall clock in `timeZone`. A list shows several timestamps per entry:
 * asking ICU for each was the largest single cost of a list page in the services (docs/PERFORMANCE.md),
 * so the zone's offset is asked once per hour and applied with Date's UTC arithmetic.
 */
export function zonedParts(date: Date, timeZone: string): WallClock {
  const ms = date.getTime();
  const offset = Number.isFinite(ms) ? cachedOffsetMs(ms, timeZone) : undefined;
  if (offset === undefined) return intlParts(date, timeZone);
  const wall = new Date(Math.floor(ms / 1000) * 1000 + offset);
  return {
    year: wall.getUTCFullYear(), month: wall.getUTCMonth() + 1, day: wall.getUTCDate(),
    hour: wall.getUTCHours(), minute: wall.getUTCMinutes(), second: wall.getUTCSeconds(),
  };
}

/** `yyyy-MM-dd HH:mm:ss` in the service time zone (docs/api/README.md, "Data"; docs/CONFIGURATION.md). */
export function formatTimestamp(date: Date, timeZone: string): string {
  const p = zonedParts(date, timeZone);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${p.year}-${pad(p.month)}-${pad(p.day)} ${pad(p.hour)}:${pad(p.minute)}:${pad(p.second)}`;
}

/** The offset of `timeZone` from UTC at `date`, in minutes (east positive). */
export function zoneOffsetMinutes(date: Date, timeZone: string): number {
  const p = zonedParts(date, timeZone);
  const asUtc = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second);
  return Math.round((asUtc - Math.floor(date.getTime() / 1000) * 1000) / 60000);
}

/**
 * Interprets a wall-clock time (`yyyy-MM-dd HH:mm:ss`, or a date) in `timeZone` as an instant.
 * Returns undefined for text that is not such a time.
 */
export function parseZonedTimestamp(text: string, timeZone: string): Date | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2}))?)?$/.exec(text.trim());
  if (!m) return undefined;
  const [y, mo, d, h = '0', mi = '0', s = '0'] = m.slice(1).map((v) => v ?? '0');
  const utcGuess = Date.UTC(+y, +mo - 1, +d, +h, +mi, +s);
  if (Number.isNaN(utcGuess)) return undefined;
  const check = new Date(utcGuess);
  if (check.getUTCMonth() !== +mo - 1 || check.getUTCDate() !== +d || +h > 23 || +mi > 59 || +s > 59) return undefined;
  // two passes settle the offset across a DST change
  let instant = utcGuess - zoneOffsetMinutes(new Date(utcGuess), timeZone) * 60000;
  instant = utcGuess - zoneOffsetMinutes(new Date(instant), timeZone) * 60000;
  return new Date(instant);
}

/** A clock that tests can move; services take time from here, never from `Date.now()` directly. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };
export const CLOCK = Symbol('CLOCK');
