import { KeyedMutex } from './keyed-mutex';

const tick = () => new Promise((r) => setImmediate(r));

describe('KeyedMutex', () => {
  it('runs sections of one key one at a time, in order', async () => {
    const mutex = new KeyedMutex();
    let value = 0;
    // a read-modify-write that would lose updates if interleaved
    const increment = () => mutex.run('k', async () => {
      const read = value;
      await tick();
      value = read + 1;
    });
    await Promise.all(Array.from({ length: 200 }, increment));
    expect(value).toBe(200);
    expect(mutex.size).toBe(0);
  });

  it('lets different keys run side by side', async () => {
    const mutex = new KeyedMutex();
    const order: string[] = [];
    await Promise.all([
      mutex.run('a', async () => { order.push('a1'); await tick(); order.push('a2'); }),
      mutex.run('b', async () => { order.push('b1'); await tick(); order.push('b2'); }),
    ]);
    expect(order.slice(0, 2).sort()).toEqual(['a1', 'b1']);
  });

  it('releases the key when a section throws', async () => {
    const mutex = new KeyedMutex();
    await expect(mutex.run('k', async () => { throw new Error('boom'); })).rejects.toThrow('boom');
    await expect(mutex.run('k', async () => 'ok')).resolves.toBe('ok');
  });

  it('locks several keys without deadlock whatever order callers give', async () => {
    const mutex = new KeyedMutex();
    const results = await Promise.all([
      mutex.runAll(['x', 'y'], async () => { await tick(); return 1; }),
      mutex.runAll(['y', 'x'], async () => { await tick(); return 2; }),
    ]);
    expect(results).toEqual([1, 2]);
  });
});
