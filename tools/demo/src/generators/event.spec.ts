import { isCalendarDate, parseEventCategory } from '@plaza/contracts';
import { CatalogueRecord, DEMO_SIZE, demoUserIds } from '../catalogue';
import { Random } from '../random';
import { demoToday, eventGeneratorFor } from './event';

const generate = (today: string, seed = 7) => [...eventGeneratorFor(today)(new Random(seed).fork('event'), DEMO_SIZE)];
const byKind = (records: CatalogueRecord[], kind: string) => records.filter((r) => r.kind === kind);
const dayOf = (timestamp: unknown) => String(timestamp).slice(0, 10);
const daysBetween = (a: string, b: string) => (Date.parse(`${b}T00:00:00Z`) - Date.parse(`${a}T00:00:00Z`)) / 86_400_000;

describe('demo events', () => {
  const today = '2031-07-15';
  const records = generate(today);

  it('is the same for the same seed and day, and moves with the day only', () => {
    expect(generate(today)).toEqual(records);
    const later = generate('2031-07-20');
    expect(later.map((r) => r.id ?? r.event_id)).toEqual(records.map((r) => r.id ?? r.event_id));
    const shift = (r: CatalogueRecord) => daysBetween(dayOf(r.begin_time), dayOf(later.find((l) => l.kind === 'event' && l.id === r.id)?.begin_time));
    expect(new Set(byKind(records, 'event').map(shift))).toEqual(new Set([5]));
  });

  it('has about 30 cities under provinces, including 北京 108288 and 上海 108296', () => {
    const locs = byKind(records, 'loc');
    const cities = locs.filter((l) => l.habitable === 'yes');
    expect(cities.length).toBeGreaterThanOrEqual(30);
    expect(cities).toEqual(expect.arrayContaining([
      expect.objectContaining({ id: '108288', uid: 'beijing', name: '北京', parent: 'china' }),
      expect.objectContaining({ id: '108296', uid: 'shanghai', name: '上海', parent: 'china' }),
    ]));
    const uids = new Set(locs.map((l) => l.uid));
    for (const loc of locs) if (loc.parent) expect(uids).toContain(loc.parent);
    expect(new Set(locs.map((l) => l.id)).size).toBe(locs.length);
  });

  it(`has ${DEMO_SIZE.events} well-formed events from a month ago to three months ahead`, () => {
    const events = byKind(records, 'event');
    expect(events).toHaveLength(DEMO_SIZE.events);
    expect(new Set(events.map((e) => e.id)).size).toBe(events.length);
    const cityIds = new Set(byKind(records, 'loc').filter((l) => l.habitable === 'yes').map((l) => l.id));
    const users = new Set(demoUserIds(DEMO_SIZE));
    for (const e of events) {
      const offset = daysBetween(today, dayOf(e.begin_time));
      expect(offset).toBeGreaterThanOrEqual(-30);
      expect(offset).toBeLessThanOrEqual(90);
      expect(String(e.begin_time) < String(e.end_time)).toBe(true);
      expect(e.begin_time).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:00$/);
      expect(cityIds).toContain(e.loc_id);
      expect(users).toContain((e.owner as { id: string }).id);
      expect(parseEventCategory(e.category)).toBe(e.category);
      expect(e.geo).toMatch(/^\d+\.\d{4} \d+\.\d{4}$/);
    }
    const past = events.filter((e) => String(e.end_time) < `${today} 00:00:00`).length;
    expect(past).toBeGreaterThan(50);
    expect(events.length - past).toBeGreaterThan(300);
  });

  it('links participants and wishers to generated events and demo users, each pair once', () => {
    const eventIds = new Set(byKind(records, 'event').map((e) => e.id));
    const users = new Set(demoUserIds(DEMO_SIZE));
    for (const kind of ['event_participant', 'event_wisher']) {
      const links = byKind(records, kind);
      expect(links.length).toBeGreaterThan(1000);
      expect(new Set(links.map((l) => `${l.event_id}:${l.user_id}`)).size).toBe(links.length);
      for (const l of links) {
        expect(eventIds).toContain(l.event_id);
        expect(users).toContain(l.user_id);
        if (l.participate_date !== undefined) expect(isCalendarDate(l.participate_date)).toBe(true);
      }
    }
    // the first demo user has something to see after signing in
    expect(byKind(records, 'event_participant').filter((l) => l.user_id === demoUserIds(DEMO_SIZE)[0]).length).toBeGreaterThan(5);
  });

  it('puts links after the events they name (import order within the file)', () => {
    const lastEvent = records.map((r) => r.kind).lastIndexOf('event');
    const firstLink = records.findIndex((r) => r.kind === 'event_participant' || r.kind === 'event_wisher');
    expect(firstLink).toBeGreaterThan(lastEvent);
  });

  it('takes today in Asia/Shanghai', () => {
    expect(demoToday(new Date('2031-07-15T16:30:00Z'))).toBe('2031-07-16');
    expect(demoToday(new Date('2031-07-15T15:30:00Z'))).toBe('2031-07-15');
  });
});
