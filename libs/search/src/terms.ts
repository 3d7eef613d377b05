/**
 * Search terms for mixed Chinese and English text.
 *
 * MongoDB's text index does not segment Chinese and FerretDB v1 has no text index at all, so
 * documents carry a `search_terms` array (with an ordinary multikey index) and a query matches
 * when every one of its terms is present (`$all`):
 * - runs of CJK characters are indexed as single characters and as overlapping pairs (bigrams),
 *   and queried as bigrams (a one-character query as itself): "春天的故事" finds any title
 *   containing that sequence, with no dictionary;
 * - other letters and digits form words, lower-cased after Unicode NFKC normalisation
 *   ("Ｈａｒｒｙ" and "harry" are one term).
 * User text is never turned into a regular expression or a query operator: terms are plain strings.
 */

const CJK = /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af]/u;
const WORD = /[\p{L}\p{N}]/u;
/** Longest query we look at: more terms only narrow the result and cost scans. */
export const MAX_QUERY_TERMS = 16;
/** Words longer than this are cut (they cannot be meaningful and would bloat the index). */
const MAX_WORD = 40;

export function normalize(text: string): string {
  return text.normalize('NFKC').toLowerCase();
}

interface Runs {
  cjk: string[];
  words: string[];
}

function runs(text: string): Runs {
  const out: Runs = { cjk: [], words: [] };
  let cjk = '';
  let word = '';
  const flushWord = () => {
    if (word) out.words.push(word.slice(0, MAX_WORD));
    word = '';
  };
  const flushCjk = () => {
    if (cjk) out.cjk.push(cjk);
    cjk = '';
  };
  for (const ch of normalize(text)) {
    if (CJK.test(ch)) {
      flushWord();
      cjk += ch;
    } else if (WORD.test(ch)) {
      flushCjk();
      word += ch;
    } else {
      flushWord();
      flushCjk();
    }
  }
  flushWord();
  flushCjk();
  return out;
}

/** The words and CJK runs of `text`, normalised, in their order. */
function tokens(text: string): string[] {
  const out: string[] = [];
  let current = '';
  let kind: 'cjk' | 'word' | undefined;
  for (const ch of normalize(text)) {
    const next = CJK.test(ch) ? 'cjk' : WORD.test(ch) ? 'word' : undefined;
    if (next !== kind && current) {
      out.push(kind === 'word' ? current.slice(0, MAX_WORD) : current);
      current = '';
    }
    kind = next;
    if (next) current += ch;
  }
  if (current) out.push(kind === 'word' ? current.slice(0, MAX_WORD) : current);
  return out;
}

/** Longest exact key kept: longer titles are compared by their start (index keys stay small). */
const MAX_EXACT_KEY = 200;

/**
 * A text as "exact match" compares it: its words and CJK runs in order, case, width and
 * punctuation ignored ("Zebrafish!" = "ZEBRAFISH", "三体II：黑暗森林" = "三体ii 黑暗森林").
 * Stored for titles at write time and compared for equality with the query's, so an exact title
 * match is an index lookup.
 */
export function exactKey(text: string | undefined | null): string {
  return text ? tokens(text).join(' ').slice(0, MAX_EXACT_KEY) : '';
}

function bigrams(run: string): string[] {
  const chars = [...run];
  const out: string[] = [];
  for (let i = 0; i + 1 < chars.length; i++) out.push(chars[i] + chars[i + 1]);
  return out;
}

/** Terms to store with a document, from all its searchable texts. */
export function indexTerms(...texts: Array<string | undefined | null>): string[] {
  const terms = new Set<string>();
  for (const text of texts) {
    if (!text) continue;
    const { cjk, words } = runs(text);
    for (const w of words) terms.add(w);
    for (const run of cjk) {
      for (const ch of run) terms.add(ch);
      for (const b of bigrams(run)) terms.add(b);
    }
  }
  return [...terms];
}

/** Terms a query must all match; empty when the query has no letters or digits. */
export function queryTerms(query: string): string[] {
  const terms = new Set<string>();
  const { cjk, words } = runs(query);
  for (const w of words) terms.add(w);
  for (const run of cjk) {
    const chars = [...run];
    if (chars.length === 1) terms.add(run);
    else for (const b of bigrams(run)) terms.add(b);
  }
  return [...terms].slice(0, MAX_QUERY_TERMS);
}

export interface WeightedText {
  text: string | undefined | null;
  weight: number;
}

/**
 * How well a document matches, for ranking the matches of `query`: the whole query appearing in
 * a field counts most (more when the field equals it or starts with it), then the share of the
 * query's terms each field holds, by field weight (a title outweighs a summary).
 */
export function relevance(query: string, fields: WeightedText[]): number {
  const q = normalize(query).trim();
  const qTerms = queryTerms(query);
  let score = 0;
  for (const { text, weight } of fields) {
    if (!text) continue;
    const t = normalize(text);
    if (q && t === q) score += 10 * weight;
    else if (q && t.startsWith(q)) score += 6 * weight;
    else if (q && t.includes(q)) score += 4 * weight;
    if (qTerms.length > 0) {
      const fieldTerms = new Set(indexTerms(text));
      score += (weight * qTerms.filter((term) => fieldTerms.has(term)).length) / qTerms.length;
    }
  }
  return score;
}
