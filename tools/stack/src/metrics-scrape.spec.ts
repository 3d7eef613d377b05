import { moved, parseMetrics, series } from './metrics-scrape';

describe('reading /metrics', () => {
  it('keys each sample by its name and labels sorted by name, and skips comments', () => {
    const scraped = parseMetrics([
      '# HELP plaza_response_cache_events_total Gateway response cache',
      '# TYPE plaza_response_cache_events_total counter',
      'plaza_response_cache_events_total{service="gateway",event="hit"} 41',
      'plaza_up 1',
      'plaza_label_text{msg="a \\"quoted\\" word"} 2.5',
    ].join('\n'));
    expect(scraped.get(series('plaza_response_cache_events_total', { event: 'hit', service: 'gateway' }))).toBe(41);
    expect(scraped.get('plaza_up{}')).toBe(1);
    expect(scraped.get(series('plaza_label_text', { msg: 'a \\"quoted\\" word' }))).toBe(2.5);
    expect(scraped.size).toBe(3);
  });

  it('counts a series absent from the first scrape from zero', () => {
    const before = parseMetrics('a{x="1"} 3\n');
    const after = parseMetrics('a{x="1"} 5\nb{x="1"} 2\n');
    expect(moved(before, after, 'a{x="1"}')).toBe(2);
    expect(moved(before, after, 'b{x="1"}')).toBe(2);
  });
});
