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
 */
export class UsersDirectory {
  private readonly users = new Map<string, Cached<UserRecord | null>>();
  private readonly friends = new Map<string, Cached<Set<string>>>();

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
    for (const ref of new Set(refs)) {
      const hit = this.users.get(ref);
      if (hit && hit.expires > now) {
        if (hit.value) result.set(ref, hit.value);
      } else missing.push(ref);
    }
    for (let i = 0; i < missing.length; i += 500) {
      const chunk = missing.slice(i, i + 500);
      const { users } = await this.bus.request(IdentityMessages.resolveUsers, { refs: chunk });
      for (const ref of chunk) {
        const user = users[ref] ?? null;
        this.remember(ref, user, now);
        if (user) {
          result.set(ref, user);
          // a later lookup by the other identifier is a hit too; but not an all-digit uid, which
          // identity reads as a user id first, and that id may be another user's
          this.remember(user.id, user, now);
          if (!/^\d+$/.test(user.uid)) this.remember(user.uid, user, now);
        }
      }
    }
    return result;
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
    this.users.clear();
    this.friends.clear();
  }

  private remember(ref: string, user: UserRecord | null, now: number): void {
    if (this.users.size >= this.maxEntries) this.users.clear();
    this.users.set(ref, { value: user, expires: now + (user ? this.ttlMs : Math.min(this.ttlMs, 2000)) });
  }
}
