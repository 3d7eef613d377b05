import { ImportKind, ImportKindOwners, ImportLine, ImportOrder } from '@plaza/contracts';
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';

export interface LineProblem {
  line: number;
  error: string;
}

export interface ParsedFile {
  lines: ImportLine[];
  problems: LineProblem[];
}

/**
 * Reads an NDJSON file: one JSON object per line with a known `kind`. Blank lines are skipped;
 * anything else that is not such a record is reported with its line number.
 */
export async function readRecords(path: string): Promise<ParsedFile> {
  const lines: ImportLine[] = [];
  const problems: LineProblem[] = [];
  const reader = createInterface({ input: createReadStream(path, { encoding: 'utf8' }), crlfDelay: Infinity });
  let n = 0;
  for await (const text of reader) readLine(text, ++n, { lines, problems });
  return { lines, problems };
}

/** One line of NDJSON, numbered `n`: a record, a problem, or nothing (blank). */
export function readLine(text: string, n: number, into: ParsedFile): void {
  const { lines, problems } = into;
  if (text.trim() === '') return;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    problems.push({ line: n, error: `not JSON: ${(err as Error).message}` });
    return;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    problems.push({ line: n, error: 'a record must be a JSON object' });
    return;
  }
  const { kind, ...record } = value as Record<string, unknown>;
  // an own key only: `constructor` or `__proto__` is no kind, though `in` finds them on every object
  if (typeof kind !== 'string' || !Object.prototype.hasOwnProperty.call(ImportKindOwners, kind)) {
    problems.push({ line: n, error: `unknown kind ${JSON.stringify(kind)}` });
    return;
  }
  lines.push({ line: n, kind, record });
}

/** Orders records so references resolve (users before friendships, subjects before lists); stable within a kind. */
export function inImportOrder(lines: ImportLine[]): ImportLine[] {
  const rank = new Map(ImportOrder.map((k, i) => [k, i]));
  return [...lines].sort((a, b) => rank.get(a.kind as ImportKind)! - rank.get(b.kind as ImportKind)! || a.line - b.line);
}
