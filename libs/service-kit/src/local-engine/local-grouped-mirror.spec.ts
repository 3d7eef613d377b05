import { LocalGroupedMirror } from './local-grouped-mirror';

interface Entry {
  _id: string;
  user: string;
  n: number;
}

async function* from(docs: Entry[], during?: () => void): AsyncIterable<Entry> {
  for (const doc of docs) {
    during?.();
    yield doc;
  }
}

describe('LocalGroupedMirror', () => {
  it('groups documents and follows puts and removes', async () => {
    const mirror = new LocalGroupedMirror<Entry>((e) => e.user);
    await mirror.ready(() => from([{ _id: 'a', user: 'u1', n: 1 }, { _id: 'b', user: 'u1', n: 2 }, { _id: 'c', user: 'u2', n: 3 }]));
    expect(mirror.group('u1').map((e) => e._id).sort()).toEqual(['a', 'b']);
    mirror.put({ _id: 'a', user: 'u1', n: 10 });
    mirror.remove('b');
    expect(mirror.group('u1')).toEqual([{ _id: 'a', user: 'u1', n: 10 }]);
    expect(mirror.group('nobody')).toEqual([]);
    // and reads one document by `_id`, moved groups included
    mirror.put({ _id: 'c', user: 'u1', n: 4 });
    expect(mirror.get('c')).toEqual({ _id: 'c', user: 'u1', n: 4 });
    expect(mirror.group('u2')).toEqual([]);
    expect(mirror.get('b')).toBeUndefined();
    // and every document held, each once
    expect([...mirror.all()].map((e) => e._id).sort()).toEqual(['a', 'c']);
  });

  it('keeps what was written or removed while the load was under way', async () => {
    const mirror = new LocalGroupedMirror<Entry>((e) => e.user);
    let step = 0;
    await mirror.ready(() =>
      from([{ _id: 'a', user: 'u1', n: 1 }, { _id: 'b', user: 'u1', n: 2 }], () => {
        if (step++ === 0) {
          mirror.put({ _id: 'a', user: 'u1', n: 99 });
          mirror.remove('b');
        }
      }),
    );
    expect(mirror.group('u1')).toEqual([{ _id: 'a', user: 'u1', n: 99 }]);
  });
});
