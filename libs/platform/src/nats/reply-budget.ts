/**
 * The largest message the deployments let NATS carry (`max_payload`, 8 MiB; the server's default
 * is 1 MiB). Every answer travels from a service to the gateway as one message.
 */
export const NATS_MAX_PAYLOAD_BYTES = 8 * 1024 * 1024;

/** What the items of one list page may take, as JSON: half the payload leaves room for the envelope and for escaping. */
export const LIST_PAGE_BUDGET_BYTES = NATS_MAX_PAYLOAD_BYTES / 2;

/**
 * The items of a list page that fit its budget, in order, and always the first one. A note, an
 * event or an annotation may hold 100 000 characters, and a hundred of them are megabytes more
 * than one message carries. The page is cut short instead: its `count` says how many came
 * (docs/api/README.md), so a client pages on from `start + count` and loses nothing.
 */
export function withinPageBudget<T>(items: T[], budget = LIST_PAGE_BUDGET_BYTES): T[] {
  // nearly every page is far under its budget: a bound found without building the JSON says so,
  // and the page is encoded once, as the reply, rather than twice
  if (jsonBytesAtMost(items, budget) <= budget) return items;
  return items.slice(0, countWithinBudget(items.length, (i) => Buffer.byteLength(JSON.stringify(items[i])), budget));
}

/** How many of the first `count` items (item i taking `bytesOf(i)`) fit `budget`: always at least the first. Sizes are asked only up to the cut. */
export function countWithinBudget(count: number, bytesOf: (i: number) => number, budget: number): number {
  let used = 0;
  for (let i = 0; i < count; i++) {
    used += bytesOf(i);
    if (used > budget && i > 0) return i;
  }
  return count;
}

/**
 * An upper bound of the bytes of `value` as JSON, found without building it: a UTF-16 unit of a
 * string takes at most 6 bytes escaped (`\u001f`), a number at most 24. Stops counting past
 * `limit`; anything with its own `toJSON` (a Date) counts as unbounded.
 */
export function jsonBytesAtMost(value: unknown, limit = Infinity): number {
  let total = 0;
  const walk = (v: unknown): void => {
    if (total > limit) return;
    if (typeof v === 'string') total += 6 * v.length + 2;
    else if (v === null || typeof v !== 'object') total += 24;
    else if (typeof (v as { toJSON?: unknown }).toJSON === 'function') total = Infinity;
    else if (Array.isArray(v)) {
      total += 2;
      for (const item of v) {
        total += 1;
        walk(item);
      }
    } else {
      total += 2;
      for (const key of Object.keys(v)) {
        total += 6 * key.length + 4;
        walk((v as Record<string, unknown>)[key]);
      }
    }
  };
  walk(value);
  return total;
}
