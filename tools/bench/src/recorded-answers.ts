/** One answer the gateway gave, as `npm run bench` recorded it for baseline R (baselines/replay.ts). */
export interface RecordedAnswer {
  path: string;
  headers: Record<string, string>;
  body: string;
}

/** Headers Node writes on its own for every answer (and the length, which follows the body). */
const WRITTEN_BY_NODE = new Set(['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding']);

/** The answers to these paths as a client gets them: the second read of each, from the gateway's cache. */
export async function recordAnswers(baseUrl: string, paths: string[], token: string): Promise<RecordedAnswer[]> {
  const answers: RecordedAnswer[] = [];
  for (const path of paths) {
    let res: Response | undefined;
    for (let i = 0; i < 2; i++) res = await fetch(`${baseUrl}${path}`, { headers: { authorization: `Bearer ${token}` } });
    if (!res || res.status !== 200) throw new Error(`recording ${path}: ${res?.status}`);
    const headers = Object.fromEntries([...res.headers].filter(([name]) => !WRITTEN_BY_NODE.has(name)));
    answers.push({ path, headers, body: await res.text() });
  }
  return answers;
}

/** The answers' mean size in bytes, and the share of their bytes outside ASCII (what costs the load generator most). */
export function answerStats(answers: RecordedAnswer[]): { bytes: number; nonAscii: number } {
  const bodies = answers.map((a) => Buffer.from(a.body));
  const bytes = bodies.reduce((n, b) => n + b.length, 0);
  const nonAscii = bodies.reduce((n, b) => n + b.filter((byte) => byte > 0x7f).length, 0);
  return { bytes: bytes / Math.max(1, bodies.length), nonAscii: nonAscii / Math.max(1, bytes) };
}
