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
});
