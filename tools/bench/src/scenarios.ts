import { Context, Step, Target } from './load';

/** A read by id that must answer 200 with the asked record. */
export const idRead = (prefix: string, ids: () => string, token?: string, extraQuery = ''): Step => ({
  path: (ctx) => {
    ctx.id = ids();
    return `${prefix}${ctx.id as string}${extraQuery}`;
  },
  headers: (): Record<string, string> => (token ? { authorization: `Bearer ${token}` } : {}),
  verify: (status, body, ctx) => status === 200 && body.includes(`"id":"${ctx.id as string}"`),
});

/** A web page by id (docs/api/web.md) that must answer 200 with the page of the asked record (its canonical address). */
export const pageRead = (prefix: string, ids: () => string): Step => ({
  path: (ctx) => {
    ctx.id = ids();
    return `${prefix}${ctx.id as string}/`;
  },
  verify: (status, body, ctx) => status === 200 && body.includes(`${prefix}${ctx.id as string}/">`),
});

/**
 * Each connection plays one user: collect a book, change the entry, remove it, write a note, like
 * it. A user never collects the same book twice, in any round: a round that stops between the
 * POST and the DELETE leaves an entry behind, which a later POST of that book would rightly
 * answer with 409.
 */
export function writeMix(tokens: string[], books: string[]): Target {
  let next = 0;
  const nextBookOf = new Map<string, number>();
  const user = (ctx: Context) => {
    if (ctx.token === undefined) ctx.token = tokens[next++ % tokens.length];
    return { authorization: `Bearer ${ctx.token as string}`, 'content-type': 'application/x-www-form-urlencoded' };
  };
  const startCycle = (ctx: Context) => {
    user(ctx);
    const token = ctx.token as string;
    // users start far apart in the catalogue, then walk it one book per cycle
    const k = nextBookOf.get(token) ?? tokens.indexOf(token) * 997;
    nextBookOf.set(token, k + 1);
    ctx.book = k;
  };
  const book = (ctx: Context) => books[(ctx.book as number) % books.length];
  return {
    steps: [
      { method: 'POST', path: (ctx) => { startCycle(ctx); return `/v2/book/${book(ctx)}/collection`; },
        headers: user, body: () => 'status=wish&rating=4&tags=bench%20test', verify: (s) => s === 201 },
      { method: 'PUT', path: (ctx) => `/v2/book/${book(ctx)}/collection`, headers: user, body: () => 'status=read&rating=5', verify: (s) => s === 202 },
      { method: 'DELETE', path: (ctx) => `/v2/book/${book(ctx)}/collection`, headers: user, verify: (s) => s === 204 },
      { method: 'POST', path: () => '/v2/notes', headers: user, body: () => 'title=Bench&content=A%20note%20written%20by%20the%20benchmark.',
        verify: (s, body, ctx) => {
          const m = /"id":"(\d+)"/.exec(body);
          if (m) ctx.note = m[1];
          return s === 201 && Boolean(m);
        } },
      { method: 'POST', path: (ctx) => `/v2/note/${(ctx.note as string) ?? '0'}/like`, headers: user, verify: (s) => s === 202 },
    ],
  };
}
