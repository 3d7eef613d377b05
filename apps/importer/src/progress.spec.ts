import { formatDuration, formatProgress, Progress } from './progress';

describe('formatDuration', () => {
  it.each([
    [0, '0 s'],
    [8.4, '8 s'],
    [59.6, '1 min 00 s'],
    [65, '1 min 05 s'],
    [3599, '59 min 59 s'],
    [3600 + 3 * 60 + 20, '1 h 03 min'],
    [-5, '0 s'],
  ])('%s seconds is %s', (seconds, text) => expect(formatDuration(seconds)).toBe(text));
});

describe('formatProgress', () => {
  it('says records done of total, the rate and the time left', () => {
    expect(formatProgress({ done: 4200, total: 9870, failed: 0, rate: 350 })).toBe('4,200 of 9,870 records (42%), 350/s, about 16 s left');
  });

  it('leaves out the rate and time left until the rate is known', () => {
    expect(formatProgress({ done: 0, total: 12000, failed: 0 })).toBe('0 of 12,000 records (0%)');
    expect(formatProgress({ done: 0, total: 10, failed: 0, rate: 0 })).toBe('0 of 10 records (0%)');
  });

  it('says how many failed, and no time left once done', () => {
    expect(formatProgress({ done: 10, total: 10, failed: 3, rate: 5 })).toBe('10 of 10 records (100%), 5/s, 3 failed');
  });

  it('counts an empty file as done', () => {
    expect(formatProgress({ done: 0, total: 0, failed: 0 })).toBe('0 of 0 records (100%)');
  });
});

/** A fake output and clock: what was written, at which fake time. */
function setup(tty: boolean, total = 1000) {
  let now = 1_000_000;
  const written: string[] = [];
  const output = { write: (text: string) => written.push(text), isTTY: tty, columns: 60 };
  const progress = new Progress(output, total, { now: () => now });
  return { progress, written, advance: (ms: number) => (now += ms) };
}

describe('Progress in a terminal', () => {
  it('rewrites one line in place (\\r, erase to end of line), at most five times a second', () => {
    const { progress, written, advance } = setup(true);
    advance(1000);
    progress.update(100);
    advance(50);
    progress.update(150); // too soon: not drawn
    advance(200);
    progress.update(200);
    expect(written).toHaveLength(2);
    expect(written[0]).toBe('\r100 of 1,000 records (10%), 100/s, about 9 s left\x1b[K');
    for (const line of written) {
      expect(line.startsWith('\r')).toBe(true);
      expect(line).not.toContain('\n');
    }
  });

  it('keeps the line within the terminal width so that \\r can rewrite it', () => {
    const { progress, written, advance } = setup(true, 123_456_789);
    advance(1000);
    progress.update(1, 1_234_567);
    expect(written[0].replace('\r', '').replace('\x1b[K', '').length).toBeLessThanOrEqual(59);
  });

  it('ends with the final count, the time taken and the average rate on a line of its own', () => {
    const { progress, written, advance } = setup(true);
    advance(1000);
    progress.update(500);
    advance(1500);
    progress.update(1000, 2);
    advance(500);
    progress.finish();
    expect(written.at(-2)).toBe('\r\x1b[K');
    expect(written.at(-1)).toBe('1,000 of 1,000 records (100%), 2 failed in 3 s (333/s)\n');
  });
});

describe('Progress in a log (not a terminal)', () => {
  it('writes a plain line every five seconds, the first one five seconds in', () => {
    const { progress, written, advance } = setup(false, 10_000);
    for (let i = 1; i <= 24; i++) {
      advance(500);
      progress.update(i * 200);
    }
    // 12 s of updates: lines at 5 s and 10 s
    expect(written).toEqual(['2,000 of 10,000 records (20%), 400/s, about 20 s left\n', '4,000 of 10,000 records (40%), 400/s, about 15 s left\n']);
    for (const line of written) expect(line).not.toContain('\r');
  });

  it('stays quiet for an import shorter than the interval, apart from the final line', () => {
    const { progress, written, advance } = setup(false, 10);
    advance(300);
    progress.update(10);
    progress.finish();
    expect(written).toEqual(['10 of 10 records (100%) in 0 s\n']);
  });

  it('measures the rate over the recent window, so the time left follows a change of pace', () => {
    const { progress, advance } = setup(false, 100_000);
    // 20 s at 1 000/s, then 20 s at 100/s
    for (let i = 1; i <= 20; i++) {
      advance(1000);
      progress.update(i * 1000);
    }
    for (let i = 1; i <= 20; i++) {
      advance(1000);
      progress.update(20_000 + i * 100);
    }
    expect(progress.rate()).toBeGreaterThan(90);
    expect(progress.rate()).toBeLessThan(120);
  });
});
