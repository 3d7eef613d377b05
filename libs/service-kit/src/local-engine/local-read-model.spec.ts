import type { DatabaseEngine } from '../mongo/database-engine';
import { LocalGroupedMirror } from './local-grouped-mirror';

interface Entry {
  _id: string;
  user: string;
}

const engine = (isLocal: () => Promise<boolean>) => ({ isLocal }) as DatabaseEngine;

describe('LocalReadModel.preload', () => {
  async function* entries(loads: { count: number }): AsyncIterable<Entry> {
    loads.count++;
    yield { _id: 'a', user: 'u1' };
  }

  it('loads in the background on the local engine', async () => {
    const mirror = new LocalGroupedMirror<Entry>((e) => e.user);
    const loads = { count: 0 };
    await mirror.preload(engine(async () => true), () => entries(loads));
    await mirror.ready(() => entries(loads));
    expect(loads.count).toBe(1);
    expect(mirror.group('u1')).toEqual([{ _id: 'a', user: 'u1' }]);
  });

  it('loads nothing on the MongoDB branch, nor while the engine cannot be asked', async () => {
    const loads = { count: 0 };
    await new LocalGroupedMirror<Entry>((e) => e.user).preload(engine(async () => false), () => entries(loads));
    await new LocalGroupedMirror<Entry>((e) => e.user).preload(engine(async () => Promise.reject(new Error('not connected'))), () => entries(loads));
    expect(loads.count).toBe(0);
  });
});
