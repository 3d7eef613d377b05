import { ReconcileResponse, ServiceName } from '@plaza/contracts';
import type { NatsConnection } from 'nats';
import { parseArgs, runReconcile } from './run-reconcile';

const answer = (service: ServiceName, drifted: Record<string, number> = {}, repaired = 0): ReconcileResponse => ({
  service, checked: { things: 3 }, drifted, repaired, busy: 0, ms: 5, journal: { entries: 0, repaired: 0, removed: 0 },
  samples: Object.keys(drifted).map((kind) => ({ kind, id: '42', stored: 1, source: 2 })),
});

function run(args: string[], answers: Partial<Record<ServiceName, ReconcileResponse | Error>>) {
  const out: string[] = [];
  const err: string[] = [];
  const asked: Array<[ServiceName, boolean]> = [];
  const nc = { drain: async () => undefined } as unknown as NatsConnection;
  const code = runReconcile({
    args, env: {}, stdout: { write: (t: string) => out.push(t) }, stderr: { write: (t: string) => err.push(t) },
    connect: async () => nc,
    request: async (_bus, service, repair) => {
      asked.push([service, repair]);
      const a = answers[service];
      if (a instanceof Error || !a) throw a ?? new Error('no responders');
      return a;
    },
  });
  return { code, out, err, asked };
}

describe('npm run reconcile', () => {
  it('asks note, event and book to repair, and exits 0 when nothing drifted', async () => {
    const r = run([], { note: answer('note'), event: answer('event'), book: answer('book') });
    expect(await r.code).toBe(0);
    expect(r.asked).toEqual([['note', true], ['event', true], ['book', true]]);
    expect(r.out.join('')).toContain('note: checked things 3; nothing drifted');
  });

  it('reports what drifted and was repaired (exit 0), or was left on a dry run (exit 1)', async () => {
    const repaired = run(['--service', 'note'], { note: answer('note', { 'note.liked_count': 2 }, 2) });
    expect(await repaired.code).toBe(0);
    expect(repaired.out.join('')).toContain('DRIFTED: note.liked_count 2; repaired 2');
    expect(repaired.out.join('')).toContain('note.liked_count 42: stored 1, source 2');
    const dry = run(['--dry-run', '--service=event'], { event: answer('event', { 'event.wisher_count': 1 }) });
    expect(await dry.code).toBe(1);
    expect(dry.asked).toEqual([['event', false]]);
    expect(dry.out.join('')).toContain('not repaired (dry run)');
  });

  it('exits 2 when a service does not answer, after asking the others', async () => {
    const r = run([], { note: answer('note'), book: answer('book') });
    expect(await r.code).toBe(2);
    expect(r.asked.map(([s]) => s)).toEqual(['note', 'event', 'book']);
    expect(r.err.join('')).toContain('event: no answer');
  });

  it('refuses unknown arguments and services', () => {
    expect(parseArgs(['--service', 'movie'])).toMatch(/unknown service movie/);
    expect(parseArgs(['--fast'])).toMatch(/unknown argument/);
    expect(parseArgs(['--json', '--dry-run'])).toEqual({ repair: false, services: ['note', 'event', 'book'], json: true });
  });
});
