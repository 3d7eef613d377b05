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
  let used = 0;
  for (let i = 0; i < items.length; i++) {
    used += Buffer.byteLength(JSON.stringify(items[i]));
    if (used > budget && i > 0) return items.slice(0, i);
  }
  return items;
}
