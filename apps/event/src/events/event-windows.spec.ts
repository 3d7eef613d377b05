import { EventDayType } from '@plaza/contracts';
import { formatTimestamp, parseZonedTimestamp } from '@plaza/platform';
import { dayWindow, hasStatus, overlaps, TimeWindow } from './event-windows';

const TZ = 'Asia/Shanghai';
const at = (local: string, tz = TZ): Date => {
  const instant = parseZonedTimestamp(local, tz);
  if (!instant) throw new Error(`bad time ${local}`);
  return instant;
};
const show = (w: TimeWindow, tz = TZ) => [formatTimestamp(w.from, tz), w.to ? formatTimestamp(w.to, tz) : '∞'];

/** Expected windows at one instant, as wall-clock text in Asia/Shanghai. */
type Expected = Record<EventDayType, [string, string]>;

// 2030-03-15 is a Friday, 2030-03-16 Saturday, 2030-03-17 Sunday, 2030-03-18 Monday.
const cases: Array<[string, string, Expected]> = [
  ['Wednesday noon', '2030-03-13 12:00:00', {
    today: ['2030-03-13 12:00:00', '2030-03-14 00:00:00'],
    tomorrow: ['2030-03-14 00:00:00', '2030-03-15 00:00:00'],
    weekend: ['2030-03-16 00:00:00', '2030-03-18 00:00:00'],
    week: ['2030-03-13 12:00:00', '2030-03-20 00:00:00'],
    future: ['2030-03-13 12:00:00', '∞'],
  }],
  ['Friday night, one second before midnight', '2030-03-15 23:59:59', {
    today: ['2030-03-15 23:59:59', '2030-03-16 00:00:00'],
    tomorrow: ['2030-03-16 00:00:00', '2030-03-17 00:00:00'],
    weekend: ['2030-03-16 00:00:00', '2030-03-18 00:00:00'],
    week: ['2030-03-15 23:59:59', '2030-03-22 00:00:00'],
    future: ['2030-03-15 23:59:59', '∞'],
  }],
  ['Saturday at midnight', '2030-03-16 00:00:00', {
    today: ['2030-03-16 00:00:00', '2030-03-17 00:00:00'],
    tomorrow: ['2030-03-17 00:00:00', '2030-03-18 00:00:00'],
    weekend: ['2030-03-16 00:00:00', '2030-03-18 00:00:00'],
    week: ['2030-03-16 00:00:00', '2030-03-23 00:00:00'],
    future: ['2030-03-16 00:00:00', '∞'],
  }],
  ['Saturday afternoon', '2030-03-16 15:30:00', {
    today: ['2030-03-16 15:30:00', '2030-03-17 00:00:00'],
    tomorrow: ['2030-03-17 00:00:00', '2030-03-18 00:00:00'],
    weekend: ['2030-03-16 15:30:00', '2030-03-18 00:00:00'],
    week: ['2030-03-16 15:30:00', '2030-03-23 00:00:00'],
    future: ['2030-03-16 15:30:00', '∞'],
  }],
  ['Sunday 23:59', '2030-03-17 23:59:00', {
    today: ['2030-03-17 23:59:00', '2030-03-18 00:00:00'],
    tomorrow: ['2030-03-18 00:00:00', '2030-03-19 00:00:00'],
    weekend: ['2030-03-17 23:59:00', '2030-03-18 00:00:00'],
    week: ['2030-03-17 23:59:00', '2030-03-24 00:00:00'],
    future: ['2030-03-17 23:59:00', '∞'],
  }],
  ['Monday 00:00: the weekend just ended, the next one is five days off', '2030-03-18 00:00:00', {
    today: ['2030-03-18 00:00:00', '2030-03-19 00:00:00'],
    tomorrow: ['2030-03-19 00:00:00', '2030-03-20 00:00:00'],
    weekend: ['2030-03-23 00:00:00', '2030-03-25 00:00:00'],
    week: ['2030-03-18 00:00:00', '2030-03-25 00:00:00'],
    future: ['2030-03-18 00:00:00', '∞'],
  }],
  ['end of a short February', '2030-02-28 22:00:00', {
    today: ['2030-02-28 22:00:00', '2030-03-01 00:00:00'],
    tomorrow: ['2030-03-01 00:00:00', '2030-03-02 00:00:00'],
    weekend: ['2030-03-02 00:00:00', '2030-03-04 00:00:00'],
    week: ['2030-02-28 22:00:00', '2030-03-07 00:00:00'],
    future: ['2030-02-28 22:00:00', '∞'],
  }],
  ['leap year: the day before February 29', '2028-02-28 09:00:00', {
    today: ['2028-02-28 09:00:00', '2028-02-29 00:00:00'],
    tomorrow: ['2028-02-29 00:00:00', '2028-03-01 00:00:00'],
    weekend: ['2028-03-04 00:00:00', '2028-03-06 00:00:00'],
    week: ['2028-02-28 09:00:00', '2028-03-06 00:00:00'],
    future: ['2028-02-28 09:00:00', '∞'],
  }],
  ['New Year\'s Eve, Tuesday 23:30', '2030-12-31 23:30:00', {
    today: ['2030-12-31 23:30:00', '2031-01-01 00:00:00'],
    tomorrow: ['2031-01-01 00:00:00', '2031-01-02 00:00:00'],
    weekend: ['2031-01-04 00:00:00', '2031-01-06 00:00:00'],
    week: ['2030-12-31 23:30:00', '2031-01-07 00:00:00'],
    future: ['2030-12-31 23:30:00', '∞'],
  }],
  ['a weekend across the new year (Friday 2032-12-31)', '2032-12-31 20:00:00', {
    today: ['2032-12-31 20:00:00', '2033-01-01 00:00:00'],
    tomorrow: ['2033-01-01 00:00:00', '2033-01-02 00:00:00'],
    weekend: ['2033-01-01 00:00:00', '2033-01-03 00:00:00'],
    week: ['2032-12-31 20:00:00', '2033-01-07 00:00:00'],
    future: ['2032-12-31 20:00:00', '∞'],
  }],
];

describe('dayWindow (docs/api/event.md windows, Asia/Shanghai)', () => {
  describe.each(cases)('%s (%s)', (_label, local, expected) => {
    it.each(Object.keys(expected) as EventDayType[])('%s', (dayType) => {
      expect(show(dayWindow(dayType, at(local), TZ))).toEqual(expected[dayType]);
    });
  });

  it('counts days in the service time zone, not in UTC', () => {
    // 2030-03-15T17:00Z is still Friday in UTC but already Saturday 01:00 in Shanghai
    const now = new Date('2030-03-15T17:00:00Z');
    expect(show(dayWindow('weekend', now, TZ))).toEqual(['2030-03-16 01:00:00', '2030-03-18 00:00:00']);
    expect(show(dayWindow('today', now, TZ))).toEqual(['2030-03-16 01:00:00', '2030-03-17 00:00:00']);
    // and one second earlier in Shanghai it is Friday 23:59:59 while UTC says 15:59:59 the same day
    expect(show(dayWindow('tomorrow', new Date('2030-03-15T15:59:59Z'), TZ))).toEqual(['2030-03-16 00:00:00', '2030-03-17 00:00:00']);
  });

  it('places midnights correctly on a daylight-saving change (America/New_York, 2030-03-10 has 23 hours)', () => {
    const ny = 'America/New_York';
    const w = dayWindow('tomorrow', at('2030-03-09 12:00:00', ny), ny);
    expect(w.from.toISOString()).toBe('2030-03-10T05:00:00.000Z');
    expect(w.to?.toISOString()).toBe('2030-03-11T04:00:00.000Z');
    expect((w.to?.getTime() ?? 0) - w.from.getTime()).toBe(23 * 3600 * 1000);
  });
});

describe('overlaps and hasStatus', () => {
  const now = at('2030-03-15 22:00:00');
  const ev = (begin: string, end: string) => ({ begin: at(begin), end: at(end) });
  const tomorrow = dayWindow('tomorrow', now, TZ);
  const today = dayWindow('today', now, TZ);

  it('takes an event that began before the window and ends inside it', () => {
    expect(overlaps(ev('2030-03-15 20:00:00', '2030-03-16 01:00:00'), tomorrow, now)).toBe(true);
    expect(overlaps(ev('2030-03-15 20:00:00', '2030-03-16 01:00:00'), today, now)).toBe(true);
  });

  it('leaves out an event that ends exactly when the window begins, or begins exactly when it ends', () => {
    expect(overlaps(ev('2030-03-15 23:00:00', '2030-03-16 00:00:00'), tomorrow, now)).toBe(false);
    expect(overlaps(ev('2030-03-16 00:00:00', '2030-03-16 02:00:00'), today, now)).toBe(false);
    expect(overlaps(ev('2030-03-16 00:00:00', '2030-03-16 02:00:00'), tomorrow, now)).toBe(true);
  });

  it('never takes an ended event, even in an open window', () => {
    expect(overlaps(ev('2030-03-15 20:00:00', '2030-03-15 22:00:00'), dayWindow('future', now, TZ), now)).toBe(false);
    expect(overlaps(ev('2030-03-15 20:00:00', '2030-03-15 22:00:01'), dayWindow('future', now, TZ), now)).toBe(true);
  });

  it('calls an event expired from the moment it ends; an upcoming one is ongoing', () => {
    expect(hasStatus(ev('2030-03-15 20:00:00', '2030-03-15 22:00:00'), 'expired', now)).toBe(true);
    expect(hasStatus(ev('2030-03-15 20:00:00', '2030-03-15 22:00:00'), 'ongoing', now)).toBe(false);
    expect(hasStatus(ev('2031-01-01 20:00:00', '2031-01-01 22:00:00'), 'ongoing', now)).toBe(true);
    expect(hasStatus(ev('2030-03-15 20:00:00', '2030-03-15 23:00:00'), 'ongoing', now)).toBe(true);
  });
});
