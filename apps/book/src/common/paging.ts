import { PageRequest } from '@plaza/contracts';

/** One page of an in-memory list. */
export function pageOf<T>(items: T[], page: PageRequest): T[] {
  return page.count === 0 ? [] : items.slice(page.start, page.start + page.count);
}
