/**
 * Reading a running app's `/metrics` (the Prometheus text format), for the e2e tests and the
 * benchmark, which both count what the stack did from its own metrics.
 */

/** One scrape: each series (`name{label="value",...}`, labels sorted by name) with its value. */
export type Scrape = Map<string, number>;

/** `name{a="1",b="2"}` with the labels sorted by name, whatever order the exporter wrote them in. */
export const series = (name: string, labels: Record<string, string>) =>
  `${name}{${Object.keys(labels).sort().map((k) => `${k}="${labels[k]}"`).join(',')}}`;

const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;

/** Reads the Prometheus text format (what `/metrics` serves) into series and values. */
export function parseMetrics(text: string): Scrape {
  const scraped: Scrape = new Map();
  for (const line of text.split('\n')) {
    const sample = SAMPLE.exec(line);
    if (!sample) continue;
    const labels = Object.fromEntries([...(sample[2] ?? '').matchAll(LABEL)].map((m) => [m[1], m[2]]));
    scraped.set(series(sample[1], labels), Number(sample[3]));
  }
  return scraped;
}

export async function scrape(url: string): Promise<Scrape> {
  const response = await fetch(url);
  if (response.status !== 200) throw new Error(`${url} answered ${response.status}`);
  return parseMetrics(await response.text());
}

/** How much each series moved between two scrapes (absent before: from 0). */
export function moved(before: Scrape, after: Scrape, key: string): number {
  return (after.get(key) ?? 0) - (before.get(key) ?? 0);
}
