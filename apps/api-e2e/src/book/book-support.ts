import { user } from '../support/fixtures';

/**
 * Users and records of fixtures/book.ndjson. Each spec file has its own users and books, so the
 * files can run side by side without seeing each other's writes.
 */
export const BookUsers = {
  reader: user('2001', 'bk_reader', '读者甲 Reader'),
  other: user('2002', 'bk_other', 'Other Reader'),
  searcher: user('2011', 'bk_searcher', '搜索者'),
  collector: user('2021', 'bk_collector', 'Collector'),
  peer: user('2022', 'bk_peer', 'Peer'),
  third: user('2023', 'bk_third', 'Third'),
  tagger: user('2024', 'bk_tagger', 'Tagger'),
  racer: user('2025', 'bk_racer', 'Racer'),
  annotator: user('2031', 'bk_annotator', '批注者 Annotator'),
  annoPeer: user('2032', 'bk_annopeer', 'Anno Peer'),
  /** annotations.e2e-spec's long annotations, on book 2300010 only */
  longNotes: user('2033', 'bk_longnotes', 'Long Notes'),
  reviewer: user('2041', 'bk_reviewer', 'Reviewer'),
  revPeer: user('2042', 'bk_revpeer', 'Review Peer'),
  laner: user('2051', 'bk_laner', 'Lane Reader'),
};

/** A book id no record has. */
export const MISSING_BOOK = '2999999';

/** A 1×1 PNG. */
export const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');
/** A 1×1 GIF. */
export const GIF = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');
/** A 1×1 WebP: an image, but not of an accepted format. */
export const WEBP = Buffer.from('UklGRiQAAABXRUJQVlA4IBgAAAAwAQCdASoBAAEAAwA0JaQAA3AA/vuUAAA=', 'base64');

export function multipart(fields: Record<string, string | number | undefined>, files: Record<string, Buffer> = {}): FormData {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) if (v !== undefined) form.set(k, String(v));
  for (const [k, bytes] of Object.entries(files)) form.set(k, new Blob([new Uint8Array(bytes)]), `${k}.bin`);
  return form;
}
