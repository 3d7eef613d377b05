import { moved, Scrape, scrape } from '@plaza/stack';

const COMMANDS = 'plaza_mongodb_command_duration_seconds_count{';
const LABELS = /collection="([^"]*)",command="([^"]*)"/;

/**
 * The database commands the services sent during a scenario, by service, collection and command,
 * counted from their own `plaza_mongodb_command_duration_seconds` (docs/OPERATING.md): what a
 * request of the scenario costs the database in round trips, beside what the CPU table says it
 * costs each process.
 */
export class CommandMeter {
  private before?: Map<string, Scrape>;
  /** `book.books update` → commands sent in the metered rounds so far, outcomes together. */
  private readonly sent = new Map<string, number>();

  /** `services`: each service's name and its probe listener's `/metrics` address. */
  constructor(
    private readonly services: Map<string, string>,
    private readonly read: (url: string) => Promise<Scrape> = scrape,
  ) {}

  /** Starts a metered round: the counts now are its start. */
  async start(): Promise<void> {
    this.before = await this.scrapeAll();
  }

  /** Ends a metered round: what each service sent since `start` adds to the totals. */
  async stop(): Promise<void> {
    const after = await this.scrapeAll();
    for (const [service, scraped] of after) {
      const before = this.before?.get(service) ?? new Map();
      for (const key of scraped.keys()) {
        if (!key.startsWith(COMMANDS)) continue;
        const labels = LABELS.exec(key);
        const sent = moved(before, scraped, key);
        if (!labels || sent <= 0) continue;
        const name = `${service}.${labels[1]} ${labels[2]}`;
        this.sent.set(name, (this.sent.get(name) ?? 0) + sent);
      }
    }
    this.before = undefined;
  }

  /** Commands per request over the metered rounds; zero counts left out. */
  perRequest(requests: number): Record<string, number> {
    return Object.fromEntries([...this.sent].map(([name, n]) => [name, n / Math.max(1, requests)]));
  }

  /** A service whose metrics cannot be read (off, or down) counts nothing. */
  private async scrapeAll(): Promise<Map<string, Scrape>> {
    const scrapes = await Promise.all([...this.services].map(async ([service, url]) => [service, await this.read(url).catch(() => new Map() as Scrape)] as const));
    return new Map(scrapes);
  }
}

/** The commands of a scenario as one table cell: the busiest first, each per request; a total first. */
export function commandsText(perRequest: Record<string, number>): string {
  const entries = Object.entries(perRequest).filter(([, n]) => n >= 0.005).sort((a, b) => b[1] - a[1]);
  if (entries.length === 0) return 'none';
  const total = entries.reduce((a, [, n]) => a + n, 0);
  return `${total.toFixed(2)}: ${entries.map(([name, n]) => `${name} ${n.toFixed(2)}`).join(', ')}`;
}
