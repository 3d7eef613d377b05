import { ANONYMOUS, ApiError, BookList, BookMessages, Caller, EventMessages, MovieMessages, NoteMessages, ReviewList, UserMessages } from '@plaza/contracts';
import { RequestOrigin, ServiceBus } from '@plaza/platform';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { ResponseCache } from '../cache/response-cache';
import { registerExtraRoute, toFastifyPath } from '../endpoints/route-patterns';
import { etagMatches, etagOf } from '../http/etag';
import { originOf } from '../http/request-context';
import {
  albumPage, bookPage, bookReviewPage, celebrityPage, cityPage, errorPage, eventPage, homePage, movieReviewPage, movieSubjectPage, notePage, PageError, photoPage, seriesPage,
  userPage, WebSite,
} from './web-pages';
import { PICTURE_ROUTES, placeholder } from './web-pictures';

/**
 * The pages' own policy: inline styles and pictures from anywhere (records name their pictures'
 * addresses), no script at all (the JSON-LD block is data, never run), no form, no frame.
 */
export const WEB_PAGE_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src http: https: data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/** The movie area shows fields by tier; the page shows the record whole, as the advance tier sees it. */
const PAGE_MOVIE_CALLER: Caller = Object.freeze({ tier: 'advance' }) as Caller;

interface Rendered {
  html: string;
  /** How long, and under which invalidation area and tags, the page may be answered from memory; absent: never. */
  cache?: { area: string; tags: string[]; ttlSeconds: number };
}

/** A cached page: the text as rendered, its bytes and ETag made once on first use. */
interface PageEntry {
  html: string;
  bytes?: Buffer;
  etag?: string;
}

type Loader = (params: Record<string, string>, origin: RequestOrigin) => Promise<Rendered>;

export interface WebDeps {
  bus: ServiceBus;
  /** The pages' own cache (a ResponseCache, so the services' invalidations reach it); absent when the response cache is off. */
  cache?: ResponseCache;
  publicWebUrl: string;
  timezone: string;
  logger: Logger;
}

/** Where PUBLIC_WEB_URL puts the pages: its absolute form for canonical addresses, its path on this host for routes and links. */
export function webSiteOf(publicWebUrl: string): WebSite {
  const web = publicWebUrl.replace(/\/+$/, '');
  return { web, base: new URL(web).pathname.replace(/\/+$/, '') };
}

/** `+08:00` for Asia/Shanghai: the offset of the zone the services write times in (events' JSON-LD). */
export function zoneOffset(timezone: string, at = new Date()): string {
  const name = new Intl.DateTimeFormat('en-US', { timeZone: timezone, timeZoneName: 'longOffset' }).formatToParts(at).find((p) => p.type === 'timeZoneName')?.value ?? 'GMT';
  const m = /GMT([+-]\d{2}:\d{2})/.exec(name);
  return m ? m[1] : '+00:00';
}

/** The status of the page for a service's refusal: missing records 404, records not for everyone 403, the rest 503. */
export function pageStatusOf(err: unknown): PageError {
  if (!(err instanceof ApiError)) return 503;
  if (err.status >= 500) return 503;
  if (err.status === 403 || err.errorName === 'need_permission') return 403;
  return 404;
}

/** Cache key of a page: its path with a trailing slash, without the query (pages take no parameters). */
export function pageKeyOf(url: string): string {
  const q = url.indexOf('?');
  const path = q < 0 ? url : url.slice(0, q);
  return `web:${path.endsWith('/') ? path : `${path}/`}`;
}

const CATALOGUE_TTL = 300;

/**
 * The web pages of the records' `alt` addresses (docs/api/web.md), served by the gateway under the
 * path of PUBLIC_WEB_URL: each is rendered from the same services over NATS as the API's reads,
 * kept in a response cache invalidated by the same `cache.v1.invalidated` tags, and a repeat read
 * of a cached page is answered on onRequest (the hook below), before the API's hooks and the handler
 * (main.ts registers this right after the security and CORS headers).
 */
export function registerWebPages(fastify: FastifyInstance, deps: WebDeps): void {
  const site = webSiteOf(deps.publicWebUrl);
  const offset = zoneOffset(deps.timezone);
  const { bus } = deps;
  const prefix = site.base;

  const book: Loader = async ({ id }, origin) => {
    const found = await bus.request(BookMessages.getBook, { id, caller: ANONYMOUS }, origin);
    const [reviews, series] = await Promise.all([
      bus.request(BookMessages.bookReviews, { id, page: { start: 0, count: 10 }, caller: ANONYMOUS }, origin).catch(() => undefined as ReviewList | undefined),
      found.series
        ? bus.request(BookMessages.seriesBooks, { id: found.series.id, page: { start: 0, count: 20 }, caller: ANONYMOUS }, origin).catch(() => undefined as BookList | undefined)
        : Promise.resolve(undefined),
    ]);
    const tags = [`book:${id}`, ...(found.series ? [`series:${found.series.id}`] : []), ...(series?.books.map((b) => `book:${b.id}`) ?? [])];
    // a review without a rating changes no cached book answer, so its list is kept for a minute only
    return { html: bookPage(site, found, reviews, series), cache: { area: 'book', tags, ttlSeconds: 60 } };
  };
  const review: Loader = async ({ id }, origin) => {
    const found = await bus.request(BookMessages.getReview, { id, caller: ANONYMOUS }, origin);
    return { html: bookReviewPage(site, found), cache: { area: 'book', tags: [`book:${found.book.id}`], ttlSeconds: 60 } };
  };
  const series: Loader = async ({ id }, origin) => {
    // an unknown series is the service's 404; a known one without books is a page that says so
    const books = await bus.request(BookMessages.seriesBooks, { id, page: { start: 0, count: 100 }, caller: ANONYMOUS }, origin);
    return { html: seriesPage(site, id, books), cache: { area: 'book', tags: [`series:${id}`, ...books.books.map((b) => `book:${b.id}`)], ttlSeconds: CATALOGUE_TTL } };
  };
  const movie: Loader = async ({ id }, origin) => {
    const subject = await bus.request(MovieMessages.getSubject, { id, caller: PAGE_MOVIE_CALLER }, origin);
    return { html: movieSubjectPage(site, subject), cache: { area: 'movie', tags: [`movie:subject:${id}`], ttlSeconds: CATALOGUE_TTL } };
  };
  const movieReview: Loader = async ({ id }, origin) => {
    const found = await bus.request(MovieMessages.getReview, { id }, origin);
    const subject = await bus.request(MovieMessages.getSubject, { id: found.subject_id, caller: PAGE_MOVIE_CALLER }, origin).catch(() => undefined);
    const page = movieReviewPage(site, found, { id: found.subject_id, title: subject?.title ?? found.subject_id });
    return { html: page, cache: { area: 'movie', tags: [`movie:subject:${found.subject_id}`], ttlSeconds: CATALOGUE_TTL } };
  };
  const celebrity: Loader = async ({ id }, origin) => {
    const found = await bus.request(MovieMessages.getCelebrity, { id, caller: PAGE_MOVIE_CALLER }, origin);
    return { html: celebrityPage(site, found), cache: { area: 'movie', tags: [`movie:celebrity:${id}`], ttlSeconds: CATALOGUE_TTL } };
  };
  const photo: Loader = async ({ id }, origin) => {
    const found = await bus.request(MovieMessages.getPhoto, { id }, origin);
    // a celebrity's photo names its celebrity in `subject_id`
    const owner = found.subject ? `movie:subject:${found.subject.id}` : `movie:celebrity:${found.celebrity?.id ?? found.photo.subject_id}`;
    return { html: photoPage(site, found), cache: { area: 'movie', tags: [owner], ttlSeconds: CATALOGUE_TTL } };
  };
  const subjectAlbum: Loader = async ({ id }, origin) => {
    const album = await bus.request(MovieMessages.subjectPhotos, { id, start: 0, count: 100, caller: PAGE_MOVIE_CALLER }, origin);
    return { html: albumPage(site, album), cache: { area: 'movie', tags: [`movie:subject:${id}`], ttlSeconds: CATALOGUE_TTL } };
  };
  const celebrityAlbum: Loader = async ({ id }, origin) => {
    const album = await bus.request(MovieMessages.celebrityPhotos, { id, start: 0, count: 100, caller: PAGE_MOVIE_CALLER }, origin);
    return { html: albumPage(site, album), cache: { area: 'movie', tags: [`movie:celebrity:${id}`], ttlSeconds: CATALOGUE_TTL } };
  };
  const event: Loader = async ({ id }, origin) => {
    const found = await bus.request(EventMessages.get, { id, caller: ANONYMOUS }, origin);
    // participation changes no cached answer (the API does not cache events): its counts may be 30 s old
    return { html: eventPage(site, found, offset), cache: { area: 'event', tags: [`event:${id}`], ttlSeconds: 30 } };
  };
  const city: Loader = async ({ id }, origin) => {
    const loc = await bus.request(EventMessages.getLoc, { id }, origin);
    const events = await bus.request(EventMessages.list, { loc: id, caller: ANONYMOUS, page: { start: 0, count: 20 } }, origin).catch(() => undefined);
    return { html: cityPage(site, loc, events), cache: { area: 'event', tags: [`loc:${id}`], ttlSeconds: 60 } };
  };
  // a note is never kept: its author may make it private at any moment, and the note service publishes no invalidation
  const note: Loader = async ({ id }, origin) => ({ html: notePage(site, await bus.request(NoteMessages.getPublic, { id, format: 'html_full' }, origin)) });
  const user: Loader = async ({ name }, origin) => {
    const found = await bus.request(UserMessages.get, { ref: name }, origin);
    return { html: userPage(site, found), cache: { area: 'user', tags: [`user:${found.id}`], ttlSeconds: 60 } };
  };

  const routes: Array<[string, Loader]> = [
    ['/book/subject/:id', book],
    ['/book/review/:id', review],
    ['/book/series/:id', series],
    ['/movie/subject/:id', movie],
    ['/m/movie/subject/:id', movie],
    ['/movie/subject/:id/photos', subjectAlbum],
    ['/movie/review/:id', movieReview],
    ['/movie/celebrity/:id', celebrity],
    ['/m/movie/celebrity/:id', celebrity],
    ['/movie/celebrity/:id/photos', celebrityAlbum],
    ['/movie/photos/photo/:id', photo],
    ['/event/:id', event],
    ['/m/event/:id', event],
    ['/loc/:id', city],
    ['/note/:id', note],
    ['/people/:name', user],
  ];

  const cache = deps.cache;

  /** Sends a page's bytes, or 304 when the client has them (ETag of the exact bytes, as the API's). */
  const sendPage = (request: FastifyRequest, reply: FastifyReply, entry: PageEntry, status: number, cacheable: boolean): FastifyReply => {
    entry.bytes ??= Buffer.from(entry.html);
    entry.etag ??= etagOf(entry.html);
    reply
      .code(status)
      .header('content-type', 'text/html; charset=utf-8')
      .header('content-security-policy', WEB_PAGE_CSP)
      .header('cache-control', cacheable ? 'public, max-age=60' : 'no-store');
    if (status === 200) {
      reply.header('etag', entry.etag);
      if (etagMatches(request.headers['if-none-match'], entry.etag)) return reply.code(304).send();
    }
    return reply.send(entry.bytes);
  };

  const sendError = (request: FastifyRequest, reply: FastifyReply, status: PageError, path: string): FastifyReply =>
    sendPage(request, reply, { html: errorPage(site, status, path) }, status, false);

  // a page read before is answered here, ahead of multipart's hook, routing and the handler
  if (cache) {
    fastify.addHook('onRequest', (request: FastifyRequest, reply: FastifyReply, done: () => void) => {
      if ((request.method !== 'GET' && request.method !== 'HEAD') || !request.url.startsWith(`${prefix}/`)) return done();
      const entry = cache.get(pageKeyOf(request.url)) as PageEntry | undefined;
      if (!entry) return done();
      sendPage(request, reply, entry, 200, true);
    });
  }

  /**
   * Renders in flight by page: requests for a page that is being rendered wait for that render
   * rather than start their own (a page read by many at once, cold, costs the services one render).
   * The render is stored under the cache generation read when it started, so one that an
   * invalidation of its area or tags overtook is never kept.
   */
  const inFlight = new Map<string, Promise<{ rendered: Rendered; entry: PageEntry }>>();
  const render = (key: string, load: Loader, request: FastifyRequest) => {
    let pending = inFlight.get(key);
    if (!pending) {
      const generation = cache?.generation ?? 0;
      pending = load(request.params as Record<string, string>, originOf(request))
        .then((rendered) => {
          const entry: PageEntry = { html: rendered.html };
          if (cache && rendered.cache) cache.set(key, entry, rendered.cache.area, rendered.cache.tags, rendered.cache.ttlSeconds, generation);
          return { rendered, entry };
        })
        .finally(() => inFlight.delete(key));
      inFlight.set(key, pending);
    }
    return pending;
  };

  for (const [path, load] of routes) {
    const full = prefix + path;
    registerExtraRoute('GET', full);
    fastify.get(toFastifyPath(full), async (request: FastifyRequest, reply: FastifyReply) => {
      try {
        const { rendered, entry } = await render(pageKeyOf(request.url), load, request);
        return sendPage(request, reply, entry, 200, rendered.cache !== undefined);
      } catch (err) {
        const status = pageStatusOf(err);
        if (status === 503) deps.logger.warn({ reqId: request.id, err: (err as Error).message }, 'web page: a service did not answer');
        return sendError(request, reply, status, path.replace(/:(id|name)/, String(Object.values(request.params as object)[0])));
      }
    });
  }

  // the pictures of the addresses the services derive under PUBLIC_WEB_URL: placeholders, drawn
  // once per size and answered from memory (no service is asked, nothing is kept per record)
  for (const { path, name, kind } of PICTURE_ROUTES) {
    const full = prefix + path;
    registerExtraRoute('GET', full);
    fastify.get(toFastifyPath(full), async (request: FastifyRequest, reply: FastifyReply) => {
      const given = (request.params as { name?: string }).name;
      if (name && !name.test(given ?? '')) return sendError(request, reply, 404, (request.url.split('?')[0] ?? '').slice(prefix.length));
      const picture = placeholder(kind);
      reply.header('content-type', 'image/png').header('cache-control', 'public, max-age=86400').header('etag', picture.etag);
      if (etagMatches(request.headers['if-none-match'], picture.etag)) return reply.code(304).send();
      return reply.send(picture.bytes);
    });
  }

  // with PUBLIC_WEB_URL at the host's root the API's paths are beside the pages: no front page, no catch-all
  if (!prefix) return;
  const home = { html: homePage(site) };
  registerExtraRoute('GET', prefix);
  fastify.get(prefix, async (request, reply) => sendPage(request, reply, home, 200, true));
  // any other address under the pages' path is a page too: a 404 one, never the API's JSON
  fastify.get(`${prefix}/*`, async (request, reply) => sendError(request, reply, 404, (request.url.split('?')[0] ?? '').slice(prefix.length)));
}
