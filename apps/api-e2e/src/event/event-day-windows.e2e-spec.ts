import { Stack } from '@plaza/stack';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PASSWORD } from '../support/fixtures';
import { E2E_ENV, runImporter } from '../support/global-setup';
import { get } from '../support/http';

/**
 * The day_type windows through the whole stack, on a clock we set: this spec starts its own
 * small stack whose event service runs with CLOCK_FIXED_AT (honoured under NODE_ENV=test only),
 * checks every window at a Friday 23:30, then restarts the event service at a Sunday 23:59:30
 * and checks them again. Times are Asia/Shanghai, the default SERVICE_TIMEZONE.
 * 2030-03-15 is a Friday.
 */
const FRIDAY_NIGHT = '2030-03-15T23:30:00+08:00';
const SUNDAY_LAST_MINUTE = '2030-03-17T23:59:30+08:00';

const OWNER = { id: '6901', uid: 'ev_clock_owner' };
const BEIJING = '108288';

/** Each event: [id, what it tests, begin, end]. */
const EVENTS: Array<[string, string, string, string]> = [
  ['70001', 'ended on Friday evening', '2030-03-15 19:00:00', '2030-03-15 23:00:00'],
  ['70002', 'ends exactly at Friday 23:30', '2030-03-15 22:00:00', '2030-03-15 23:30:00'],
  ['70003', 'runs across Friday midnight', '2030-03-15 22:00:00', '2030-03-16 01:00:00'],
  ['70004', 'late on Friday', '2030-03-15 23:45:00', '2030-03-15 23:59:00'],
  ['70005', 'begins at Saturday 00:00', '2030-03-16 00:00:00', '2030-03-16 02:00:00'],
  ['70006', 'runs across Sunday midnight', '2030-03-17 23:00:00', '2030-03-18 01:00:00'],
  ['70007', 'begins at Monday 00:00', '2030-03-18 00:00:00', '2030-03-18 08:00:00'],
  ['70008', 'on Thursday, the sixth day after Friday', '2030-03-21 20:00:00', '2030-03-21 22:00:00'],
  ['70009', 'begins at the next Friday 00:00', '2030-03-22 00:00:00', '2030-03-22 02:00:00'],
  ['70010', 'on the next Saturday', '2030-03-23 10:00:00', '2030-03-23 12:00:00'],
  ['70011', 'begins at the next Sunday 00:00', '2030-03-24 00:00:00', '2030-03-24 01:00:00'],
  ['70012', 'runs from Thursday to Tuesday', '2030-03-14 10:00:00', '2030-03-19 10:00:00'],
  ['70013', 'far in the future', '2099-01-01 10:00:00', '2099-01-01 12:00:00'],
];

function fixtureFile(dir: string): string {
  const records = [
    { kind: 'user', id: OWNER.id, uid: OWNER.uid, name: 'Clock owner', password: PASSWORD },
    { kind: 'loc', id: '100000', uid: 'china', name: '中国', parent: '', habitable: 'no' },
    { kind: 'loc', id: BEIJING, uid: 'beijing', name: '北京', parent: 'china', habitable: 'yes' },
    ...EVENTS.map(([id, title, begin_time, end_time]) => ({
      kind: 'event', id, title, category: id === '70005' ? 'music' : 'party', begin_time, end_time, loc_id: BEIJING, owner: { id: OWNER.id },
    })),
    // the owner takes part in the event that ends exactly at Friday 23:30 and in a later one
    { kind: 'event_participant', event_id: '70002', user_id: OWNER.id },
    { kind: 'event_participant', event_id: '70004', user_id: OWNER.id },
  ];
  const file = join(dir, 'clock-events.ndjson');
  writeFileSync(file, `${records.map((r) => JSON.stringify(r)).join('\n')}\n`);
  return file;
}

describe('day_type windows on a fixed clock (own stack)', () => {
  let stack: Stack;
  let dataDir: string;
  let fixture: string;

  const windowIds = async (day_type: string, extra: Record<string, string> = {}) => {
    const res = await get('/v2/event/list', { baseUrl: stack.baseUrl, query: { loc: BEIJING, day_type, count: 100, ...extra } });
    expect(res.status).toBe(200);
    expect(res.body.total).toBe(res.body.events.length);
    return res.body.events.map((e: { id: string }) => e.id);
  };

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'plaza-e2e-clock-'));
    stack = await Stack.start({ dataDir, env: E2E_ENV, appEnv: { event: { CLOCK_FIXED_AT: FRIDAY_NIGHT } } });
    fixture = fixtureFile(dataDir);
    runImporter(stack, fixture);
  }, 240_000);

  afterAll(async () => {
    await stack?.stop();
    if (dataDir && !process.env.KEEP_E2E_DATA) rmSync(dataDir, { recursive: true, force: true });
  }, 60_000);

  describe('at Friday 23:30', () => {
    it('today is [now, Saturday 00:00)', async () => {
      expect(await windowIds('today')).toEqual(['70012', '70003', '70004']);
    });

    it('tomorrow is the whole Saturday', async () => {
      expect(await windowIds('tomorrow')).toEqual(['70012', '70003', '70005']);
    });

    it('weekend is Saturday 00:00 to Monday 00:00', async () => {
      expect(await windowIds('weekend')).toEqual(['70012', '70003', '70005', '70006']);
      expect(await windowIds('weekend', { type: 'music' })).toEqual(['70005']);
    });

    it('week ends at the midnight that ends Thursday', async () => {
      expect(await windowIds('week')).toEqual(['70012', '70003', '70004', '70005', '70006', '70007', '70008']);
    });

    it('future is everything not yet ended (the default)', async () => {
      const future = ['70012', '70003', '70004', '70005', '70006', '70007', '70008', '70009', '70010', '70011', '70013'];
      expect(await windowIds('future')).toEqual(future);
      const res = await get('/v2/event/list', { baseUrl: stack.baseUrl, query: { loc: BEIJING, count: 100 } });
      expect(res.body.events.map((e: { id: string }) => e.id)).toEqual(future);
    });

    it('calls an event that ended exactly now expired', async () => {
      const path = `/v2/event/user_participated/${OWNER.id}`;
      const ids = async (status: string) =>
        (await get(path, { baseUrl: stack.baseUrl, query: { status } })).body.events.map((e: { id: string }) => e.id);
      expect(await ids('ongoing')).toEqual(['70004']);
      expect(await ids('expired')).toEqual(['70002']);
    });
  });

  describe('at Sunday 23:59:30 (after restarting the event service)', () => {
    beforeAll(async () => {
      const event = stack.app('event');
      await event.stop();
      event.spec.env = { ...event.spec.env, CLOCK_FIXED_AT: SUNDAY_LAST_MINUTE };
      event.start();
      await stack.waitReady();
    }, 120_000);

    it('today is the last half minute of Sunday', async () => {
      expect(await windowIds('today')).toEqual(['70012', '70006']);
    });

    it('tomorrow is the whole Monday', async () => {
      expect(await windowIds('tomorrow')).toEqual(['70012', '70006', '70007']);
    });

    it('weekend is what is left of this one: [now, Monday 00:00)', async () => {
      expect(await windowIds('weekend')).toEqual(['70012', '70006']);
    });

    it('week runs to the midnight that ends the next Saturday', async () => {
      expect(await windowIds('week')).toEqual(['70012', '70006', '70007', '70008', '70009', '70010']);
    });

    it('future leaves out everything that ended before now', async () => {
      expect(await windowIds('future')).toEqual(['70012', '70006', '70007', '70008', '70009', '70010', '70011', '70013']);
    });
  });

  // this stack is private, so loading records again cannot disturb another spec
  describe('import', () => {
    const eventOf = async (id: string) => (await get(`/v2/event/${id}`, { baseUrl: stack.baseUrl })).body;

    it('changes nothing when the same file is loaded again', async () => {
      const before = await Promise.all(EVENTS.map(([id]) => eventOf(id)));
      runImporter(stack, fixture);
      expect(await Promise.all(EVENTS.map(([id]) => eventOf(id)))).toEqual(before);
      expect((await eventOf('70002')).participant_count).toBe(1);
    }, 60_000);

    it('reports each bad record with its line number and loads the rest', async () => {
      const event = (id: string, changes: Record<string, unknown>) => ({
        kind: 'event', id, title: `record ${id}`, category: 'music', begin_time: '2030-04-01 10:00:00', end_time: '2030-04-01 12:00:00',
        loc_id: BEIJING, owner: { id: OWNER.id }, ...changes,
      });
      const lines = [
        event('70051', { category: 'concert' }),
        event('70052', { end_time: '2030-04-01 09:00:00' }),
        event('70053', { loc_id: '999' }),
        event('70054', { owner: { id: '69999' } }),
        event('70055', { geo: '200 300' }),
        event('70056', { begin_time: '2030-04-31 10:00:00' }),
        { kind: 'event_participant', event_id: '70001', user_id: OWNER.id, participate_date: '2030-02-30' },
        { kind: 'event_wisher', event_id: '79999', user_id: OWNER.id },
        { kind: 'loc', id: '1', uid: 'bei jing', name: '坏' },
        // a name every object has is no category either
        event('70057', { category: 'constructor' }),
        event('70050', { category: 16, geo: '39.9 116.4', 'image-hlarge': 'https://img.example.org/h.jpg' }),
      ];
      const file = join(dataDir, 'bad-records.ndjson');
      writeFileSync(file, `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
      let report = '';
      try {
        runImporter(stack, file);
      } catch (err) {
        report = (err as Error).message;
      }
      for (let line = 1; line <= 10; line++) expect(report).toMatch(new RegExp(`line ${line}: `));
      expect(report).not.toMatch(/line 11: /);
      for (const id of ['70051', '70052', '70053', '70054', '70055', '70056', '70057']) {
        expect((await get(`/v2/event/${id}`, { baseUrl: stack.baseUrl })).status).toBe(404);
      }
      expect(await eventOf('70050')).toMatchObject({
        category: 'travel', geo: '39.9 116.4',
        // the one poster size given is kept; the others are derived from PUBLIC_WEB_URL
        'image-hlarge': 'https://img.example.org/h.jpg',
        image: `${stack.baseUrl}/web/pics/event/70050/large.jpg`,
        'image-lmobile': `${stack.baseUrl}/web/pics/event/70050/lmobile.jpg`,
      });
    }, 60_000);
  });
});
