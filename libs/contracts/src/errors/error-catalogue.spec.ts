import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Errors } from './error-catalogue';

/**
 * Codes are public interface: docs/ERRORS.md must list exactly the catalogue, with the same
 * status and msg, so documentation and behaviour cannot drift apart.
 */
describe('error catalogue and docs/ERRORS.md', () => {
  const doc = readFileSync(join(__dirname, '../../../../docs/ERRORS.md'), 'utf8');
  const documented = new Map<number, { status: number; msg: string }>();
  for (const line of doc.split('\n')) {
    const m = /^\|\s*(\d+)\s*\|\s*(\d{3})\s*\|\s*`([^`]+)`\s*\|/.exec(line);
    if (m) documented.set(Number(m[1]), { status: Number(m[2]), msg: m[3] });
  }

  it('documents every code with its status and msg', () => {
    for (const def of Object.values(Errors)) expect(documented.get(def.code)).toEqual({ status: def.status, msg: def.msg });
  });

  it('documents no code the catalogue does not have', () => {
    const codes = new Set(Object.values(Errors).map((e) => e.code));
    expect([...documented.keys()].filter((c) => !codes.has(c))).toEqual([]);
  });

  it('has unique codes', () => {
    const codes = Object.values(Errors).map((e) => e.code);
    expect(new Set(codes).size).toBe(codes.length);
  });
});
