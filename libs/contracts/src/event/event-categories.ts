/**
 * Event types (docs/api/event.md, "Event"): a number 10-18 or its word. Anything outside 10-18 is
 * `others` (docs/api/event.md). The Chinese labels are the `category_name` of an Event
 * (docs/api/event.md); they follow the original site's category names.
 */
export const EventCategoryNumbers = {
  music: 10,
  drama: 11,
  exhibition: 12,
  salon: 13,
  party: 14,
  sports: 15,
  travel: 16,
  commonweal: 17,
  film: 18,
} as const;

export type TypedEventCategory = keyof typeof EventCategoryNumbers;
export type EventCategory = TypedEventCategory | 'others';

export const EventCategoryLabels: Record<EventCategory, string> = {
  music: '音乐',
  drama: '戏剧',
  exhibition: '展览',
  salon: '讲座',
  party: '聚会',
  sports: '运动',
  travel: '旅行',
  commonweal: '公益',
  film: '电影',
  others: '其他',
};

export const EVENT_CATEGORIES = [...(Object.keys(EventCategoryNumbers) as TypedEventCategory[]), 'others'] as EventCategory[];

const byNumber = new Map<string, TypedEventCategory>(
  (Object.entries(EventCategoryNumbers) as Array<[TypedEventCategory, number]>).map(([word, n]) => [String(n), word]),
);

/** `music`, `10`, ` Music ` → `music`; `others` → `others`; anything else → undefined. */
export function parseEventCategory(value: unknown): EventCategory | undefined {
  const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim().toLowerCase() : undefined;
  if (text === undefined) return undefined;
  if (text === 'others') return 'others';
  // an own key only: `in` also finds `constructor` and `__proto__`
  if (Object.prototype.hasOwnProperty.call(EventCategoryNumbers, text)) return text as TypedEventCategory;
  return byNumber.get(text);
}

/** Every value the `type` filter of GET /v2/event/list accepts (after lower-casing). */
export const EVENT_TYPE_FILTERS: string[] = ['all', ...EVENT_CATEGORIES, ...byNumber.keys()];
