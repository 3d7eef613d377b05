import { ApiResponse, get } from './http';

/**
 * Reads a list whose first page of 100 is cut short to what one NATS message carries, then pages
 * on from start + count (DECISIONS.md "A list page is cut to what one NATS message carries").
 * Checks each page's shape: the first holds more than one entry and fewer than all `expected`,
 * `count` is the entries sent, `start` echoes the one asked, and no page is empty before the end.
 * Returns the first page and every id read, in order, for the caller to compare.
 */
export async function readCutList(
  path: string, listKey: string, expected: number, token?: string,
): Promise<{ first: ApiResponse; ids: string[] }> {
  const idsOf = (res: ApiResponse) => (res.body[listKey] as Array<{ id: string }>).map((entry) => entry.id);
  const first = await get(path, { token, query: { count: 100 } });
  expect(first.status).toBe(200);
  expect(first.body.total).toBe(expected);
  expect(first.body.count).toBe(first.body[listKey].length);
  expect(first.body.count).toBeGreaterThan(1);
  expect(first.body.count).toBeLessThan(expected);
  const ids = idsOf(first);
  for (let start = first.body.count; start < expected; ) {
    const page = await get(path, { token, query: { start, count: 100 } });
    expect(page.status).toBe(200);
    expect(page.body.start).toBe(start);
    expect(page.body.count).toBeGreaterThan(0);
    ids.push(...idsOf(page));
    start += page.body.count;
  }
  return { first, ids };
}
