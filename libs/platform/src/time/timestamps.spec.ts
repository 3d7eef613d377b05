import { formatTimestamp, parseZonedTimestamp, zoneOffsetMinutes } from './timestamps';

describe('timestamps in the service time zone', () => {
  it('formats yyyy-MM-dd HH:mm:ss in Asia/Shanghai', () => {
    expect(formatTimestamp(new Date('2024-01-31T16:30:05Z'), 'Asia/Shanghai')).toBe('2024-02-01 00:30:05');
  });

  it('parses a wall-clock time back to the same instant', () => {
    expect(parseZonedTimestamp('2024-02-01 00:30:05', 'Asia/Shanghai')?.toISOString()).toBe('2024-01-31T16:30:05.000Z');
    expect(parseZonedTimestamp('2024-02-01', 'Asia/Shanghai')?.toISOString()).toBe('2024-01-31T16:00:00.000Z');
  });

  it('handles a zone with daylight saving', () => {
    expect(zoneOffsetMinutes(new Date('2024-07-01T12:00:00Z'), 'Europe/Berlin')).toBe(120);
    expect(parseZonedTimestamp('2024-07-01 12:00:00', 'Europe/Berlin')?.toISOString()).toBe('2024-07-01T10:00:00.000Z');
    expect(parseZonedTimestamp('2024-01-01 12:00:00', 'Europe/Berlin')?.toISOString()).toBe('2024-01-01T11:00:00.000Z');
  });

  it.each([['2024-02-30'], ['2024-13-01 00:00:00'], ['2024-01-01 24:00:00'], ['yesterday'], ['2024-1-1']])('rejects %s', (text) => {
    expect(parseZonedTimestamp(text, 'Asia/Shanghai')).toBeUndefined();
  });

  it("shows the same wall clock as ICU for every instant, across offset changes and odd offsets", () => {
    const formats = new Map<string, Intl.DateTimeFormat>();
    const icu = (date: Date, timeZone: string) => {
      let format = formats.get(timeZone);
      if (!format) {
        format = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' });
        formats.set(timeZone, format);
      }
      const parts = Object.fromEntries(format.formatToParts(date).map((p) => [p.type, p.value]));
      return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}:${parts.second}`;
    };
    const zones = ['Asia/Shanghai', 'Europe/Berlin', 'America/New_York', 'Australia/Lord_Howe', 'Asia/Kathmandu', 'America/St_Johns', 'UTC'];
    // around DST changes (every 7 minutes 13 seconds for two days), and spread over 1890-2040 (Shanghai's local mean time included)
    const around = (iso: string) => Array.from({ length: 400 }, (_, i) => Date.parse(iso) - 86_400_000 + i * 433_123);
    const spread = Array.from({ length: 3000 }, (_, i) => Date.UTC(1890, 0, 1) + i * 1_577_836_801);
    const instants = [...around('2024-03-31T01:00:00Z'), ...around('2024-10-27T01:00:00Z'), ...around('2024-03-10T07:00:00Z'), ...around('2024-04-06T15:00:00Z'), ...spread];
    for (const timeZone of zones) {
      const wrong = instants.filter((ms) => formatTimestamp(new Date(ms), timeZone) !== icu(new Date(ms), timeZone));
      expect(wrong.map((ms) => `${timeZone} ${new Date(ms).toISOString()}`)).toEqual([]);
    }
  });
});
