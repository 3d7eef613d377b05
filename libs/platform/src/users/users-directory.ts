import { IdentityMessages, UserRecord } from '@plaza/contracts';
import { ServiceBus } from '../nats/service-bus';

interface Cached<T> {
  value: T;
  expires: number;
}

/**
 * Users belong to identity; other services look them up here by uid or numeric id (the API
 * accepts either wherever a path says `:name`: docs/api/README.md, "Addresses"). Answers are cached briefly: names and avatars
 * change rarely and a short staleness is harmless, while a lookup per list item is not.
 *
 * A user shown within a second TTL after their entry expired is answered from it while one
 * lookup refreshes it in the background: the entries of a list's users all expire together, and
 * every request then waiting on identity at once set a list's p99 (docs/PERFORMANCE.md, "Search
 * and lists"). A ref being looked up is asked for once, whoever else needs it meanwhile. An
 * erased user is forgotten at once (`clear`), never served stale.
 */
export class UsersDirectory {
  private readonly users = new Map<string, Cached<UserRecord | null>>();
  private readonly friends = new Map<string, Cached<Set<string>>>();
  /** Lookups on their way to identity, by ref: a second caller waits for the same answer. */
  private readonly inFlight = new Map<string, Promise<UserRecord | null>>();
  /** Counts `clear`s: an answer asked for before one is neither remembered nor shared after it. */
  private generation = 0;

  constructor(
    private readonly bus: ServiceBus,
    private readonly ttlMs = 30_000,
    private readonly maxEntries = 20_000,
  ) {}

  /** Resolves many refs at once; refs naming no user are absent from the result. */
  async resolve(refs: Iterable<string>): Promise<Map<string, UserRecord>> {
    const now = Date.now();
    const result = new Map<string, UserRecord>();
    const missing: string[] = [];
    const stale: string[] = [];
    for (const ref of new Set(refs)) {
      const hit = this.users.get(ref);
      if (hit && hit.expires > now - (hit.value ? this.ttlMs : 0)) {
        if (hit.value) result.set(ref, hit.value);
        if (hit.expires <= now) stale.push(ref);
      } else missing.push(ref);
    }
    // a failed refresh leaves the stale entry, which the next lookup past its grace asks for again
    if (stale.length) this.lookUp(stale).catch(() => undefined);
    if (missing.length) {
      const found = await this.lookUp(missing);
      for (const [ref, user] of found) if (user) result.set(ref, user);
    }
    return result;
  }

  /** Asks identity for the refs not already on their way, and waits for every one of them. */
  private async lookUp(refs: string[]): Promise<Map<string, UserRecord | null>> {
    const toAsk = refs.filter((ref) => !this.inFlight.has(ref));
    for (let i = 0; i < toAsk.length; i += 500) {
      const chunk = toAsk.slice(i, i + 500);
      const answer = this.ask(chunk);
      const shared = new Map(chunk.map((ref, k) => [ref, answer.then((users) => users[k])]));
      for (const [ref, user] of shared) this.inFlight.set(ref, user);
      const forget = () => chunk.forEach((ref) => this.inFlight.get(ref) === shared.get(ref) && this.inFlight.delete(ref));
      answer.then(forget, forget);
    }
    const users = await Promise.all(refs.map((ref) => this.inFlight.get(ref) ?? null));
    return new Map(refs.map((ref, k) => [ref, users[k]]));
  }

  private async ask(chunk: string[]): Promise<Array<UserRecord | null>> {
    const generation = this.generation;
    const { users } = await this.bus.request(IdentityMessages.resolveUsers, { refs: chunk });
    const now = Date.now();
    return chunk.map((ref) => {
      const user = users[ref] ?? null;
      if (generation !== this.generation) return user;
      this.remember(ref, user, now);
      if (user) {
        // a later lookup by the other identifier is a hit too; but not an all-digit uid, which
        // identity reads as a user id first, and that id may be another user's
        this.remember(user.id, user, now);
        if (!/^\d+$/.test(user.uid)) this.remember(user.uid, user, now);
      }
      return user;
    });
  }

  async find(ref: string): Promise<UserRecord | undefined> {
    return (await this.resolve([ref])).get(ref);
  }

  async friendIds(userId: string): Promise<Set<string>> {
    const now = Date.now();
    const hit = this.friends.get(userId);
    if (hit && hit.expires > now) return hit.value;
    const { friendIds } = await this.bus.request(IdentityMessages.friends, { userId });
    const value = new Set(friendIds);
    this.friends.set(userId, { value, expires: now + this.ttlMs });
    return value;
  }

  async areFriends(a: string, b: string): Promise<boolean> {
    return (await this.friendIds(a)).has(b);
  }

  /** Forget everything (after an import that may have changed users). */
  clear(): void {
    this.generation++;
    this.inFlight.clear();
    this.users.clear();
    this.friends.clear();
  }

  private remember(ref: string, user: UserRecord | null, now: number): void {
    if (this.users.size >= this.maxEntries) this.users.clear();
    this.users.set(ref, { value: user, expires: now + (user ? this.ttlMs : Math.min(this.ttlMs, 2000)) });
  }
}
