import { createHash, randomBytes } from 'node:crypto';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { tokenFor } from '../support/auth';
import { Apps, PASSWORD, Users } from '../support/fixtures';
import { acquire } from '../support/exclusive';
import { api, post } from '../support/http';
import { stackInfo } from '../support/stack-info';
import { drawnWidth, launchBrowser, onlyFrom, screenshot, seriousViolations } from './browser';

/**
 * The pages in a real browser (headless Chromium, docs/api/web.md): what a person sees on a book,
 * a movie, a photo, an event and a note page, their pictures drawn, with axe-core finding no
 * serious or critical violation on each, and a sign-in through /auth2/auth with PKCE, typed as a
 * person would. Screenshots of every page go to tmp/test-output/web.
 */

let browser: Browser;
let context: BrowserContext;
let base: string;
/** A real picture (a PNG the gateway draws) for the tests that stand in for a catalogue's picture host or upload one. */
let picture: Buffer;

beforeAll(async () => {
  base = stackInfo().baseUrl;
  browser = await launchBrowser();
  context = await browser.newContext({ viewport: { width: 1024, height: 768 } });
  picture = Buffer.from(await (await fetch(`${base}/web/movie/img/photo/image/1.jpg`)).arrayBuffer());
}, 60_000);

afterAll(async () => {
  await context?.close();
  await browser?.close();
});

async function open(path: string, pictureHosts: Record<string, Buffer> = {}): Promise<{ page: Page; status: number }> {
  const page = await context.newPage();
  await onlyFrom(page, base, pictureHosts);
  const response = await page.goto(base + path, { waitUntil: 'domcontentloaded' });
  return { page, status: response?.status() ?? 0 };
}

async function checkAccessible(page: Page, name: string): Promise<void> {
  await screenshot(page, name);
  expect({ name, violations: await seriousViolations(page) }).toEqual({ name, violations: [] });
}

describe('web pages in a browser', () => {
  it('a book page: title, facts, series links, in Chinese; accessible', async () => {
    const { page, status } = await open('/web/book/subject/2100003/');
    expect(status).toBe(200);
    expect(await page.title()).toBe('三体 - Plaza');
    expect(await page.locator('html').getAttribute('lang')).toBe('zh-CN');
    expect(await page.locator('h1').innerText()).toBe('三体');
    const text = await page.locator('main').innerText();
    expect(text).toContain('刘慈欣');
    expect(text).toContain('同一丛书');
    await page.getByRole('link', { name: '三体II：黑暗森林' }).click();
    await page.waitForURL('**/web/book/subject/2100004/');
    expect(await page.locator('h1').innerText()).toBe('三体II：黑暗森林');
    await checkAccessible(page, 'book');
    await page.close();
  });

  it("a book's cover is drawn: the page's picture address, policy and markup let the browser load it", async () => {
    // book covers are on the catalogue's picture host (the API derives none): the test stands in for it
    const { page, status } = await open('/web/book/subject/2100001/', { 'https://img.example.com': picture });
    expect(status).toBe(200);
    const cover = page.locator('img.cover');
    expect(await cover.getAttribute('src')).toBe('https://img.example.com/l/2100001.jpg');
    expect(await drawnWidth(cover)).toBeGreaterThan(0);
    await checkAccessible(page, 'book-cover');
    await page.close();
  });

  it("a movie loaded without pictures shows the gateway's: its poster and its photos are drawn", async () => {
    const { page, status } = await open('/web/movie/subject/2600002/');
    expect(status).toBe(200);
    const poster = page.locator('img.cover');
    expect(await poster.getAttribute('src')).toBe(`${base}/web/movie/img/subject/l/2600002.jpg`);
    expect(await drawnWidth(poster)).toBe(270);
    await page.close();
    const withPhotos = await open('/web/movie/subject/2600001/');
    // the first photo was loaded without addresses; the others name the catalogue's host
    expect(await drawnWidth(withPhotos.page.locator('ul.photos img').first())).toBe(150);
    await withPhotos.page.close();
  });

  it('a photo page shows the photo and leads to the next photo and the album; accessible', async () => {
    const { page, status } = await open('/web/movie/photos/photo/2700001/');
    expect(status).toBe(200);
    expect(await page.locator('h1').innerText()).toBe('春天的故事的剧照 1');
    expect(await drawnWidth(page.locator('figure.photo img'))).toBe(600);
    await checkAccessible(page, 'photo');
    await page.getByRole('link', { name: '下一张' }).click();
    await page.waitForURL('**/web/movie/photos/photo/2700002/');
    expect(await page.locator('h1').innerText()).toBe('剧照 2');
    await page.getByRole('link', { name: '春天的故事 剧照' }).click();
    await page.waitForURL('**/web/movie/subject/2600001/photos/');
    expect(await page.locator('ul.photos a').count()).toBe(12);
    await checkAccessible(page, 'album');
    await page.close();
  });

  it('a series without books says so; accessible', async () => {
    const { page, status } = await open('/web/book/series/2900003/');
    expect(status).toBe(200);
    expect(await page.locator('main').innerText()).toContain('This series has no books yet.');
    await checkAccessible(page, 'series-empty');
    await page.close();
  });

  it('a movie page links its celebrities; on a phone-sized screen nothing runs off the side; accessible', async () => {
    const { page, status } = await open('/web/movie/subject/2600001/');
    expect(status).toBe(200);
    expect(await page.locator('h1').innerText()).toContain('春天的故事');
    await checkAccessible(page, 'movie');
    await page.setViewportSize({ width: 360, height: 740 });
    expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(360);
    await screenshot(page, 'movie-phone');
    await page.getByRole('link', { name: '王一导' }).first().click();
    await page.waitForURL('**/web/movie/celebrity/1300001/');
    expect(await page.locator('h1').innerText()).toContain('王一导');
    await checkAccessible(page, 'celebrity');
    await page.close();
  });

  it('an event page shows when and where, and links its city; accessible', async () => {
    const { page, status } = await open('/web/event/60001/');
    expect(status).toBe(200);
    expect(await page.locator('h1').innerText()).toBe('北京草地音乐节');
    const text = await page.locator('main').innerText();
    expect(text).toContain('2099-05-01 19:30:00');
    await checkAccessible(page, 'event');
    await page.getByRole('link', { name: '北京' }).click();
    await page.waitForURL('**/web/loc/108288/');
    expect(await page.getByRole('link', { name: '北京草地音乐节' }).count()).toBeGreaterThan(0);
    await page.close();
  });

  it("a user's page shows the avatar the user was loaded with, the gateway's when none", async () => {
    const { page, status } = await open(`/web/people/${Users.carol.uid}/`);
    expect(status).toBe(200);
    expect(await drawnWidth(page.locator('img.cover'))).toBe(160);
    await checkAccessible(page, 'user');
    await page.close();
  });

  it('a note page shows its text as written, markup as text, links as links; a private note a 403 page; accessible', async () => {
    const token = await tokenFor(Users.carol);
    const note = await post('/v2/notes', {
      token,
      form: { title: '春天 <script>alert(1)</script>', content: '今天去河边散步。<img src=x onerror=alert(1)>\n[url="https://example.com/walk"]散步地图[/url]', privacy: 'public' },
    });
    expect(note.status).toBe(201);
    const { page, status } = await open(`/web/note/${note.body.id}/`);
    expect(status).toBe(200);
    expect(await page.locator('h1').innerText()).toBe('春天 <script>alert(1)</script>');
    const article = page.locator('article');
    expect(await article.innerText()).toContain('今天去河边散步。<img src=x onerror=alert(1)>');
    expect(await article.locator('img').count()).toBe(0);
    expect(await article.getByRole('link', { name: '散步地图' }).getAttribute('href')).toBe('https://example.com/walk');
    await checkAccessible(page, 'note');
    await page.close();

    const closed = await post('/v2/notes', { token, form: { title: 'Private', content: 'only mine', privacy: 'private' } });
    const refused = await open(`/web/note/${closed.body.id}/`);
    expect(refused.status).toBe(403);
    expect(await refused.page.locator('h1').innerText()).toBe('Not public');
    await screenshot(refused.page, 'note-private');
    await refused.page.close();
  });

  it("a note's picture, stored by the gateway, is drawn on its page", async () => {
    const token = await tokenFor(Users.carol);
    const form = new FormData();
    for (const [name, value] of Object.entries({ title: '河边的樱花', content: '樱花开了。\n<图片p_1>', pids: 'p_1', desc_p_1: '樱花', layout_p_1: 'C', privacy: 'public' })) form.append(name, value);
    form.append('image_p_1', new Blob([new Uint8Array(picture)], { type: 'image/png' }), 'sakura.png');
    // the note picture suites count the stored pictures: none is stored while they do
    const release = await acquire('note-pictures');
    const note = await api('POST', '/v2/notes', { token, multipart: form }).finally(release);
    expect(note.status).toBe(201);
    const { page, status } = await open(`/web/note/${note.body.id}/`);
    expect(status).toBe(200);
    const photo = page.locator('article figure img');
    expect(await photo.getAttribute('src')).toMatch(new RegExp(`^${base}/v2/picture/note-[0-9a-f]{32}\\.png$`));
    expect(await drawnWidth(photo)).toBe(600);
    await checkAccessible(page, 'note-picture');
    await page.close();
  });

  it('a missing book is a 404 page a person can read', async () => {
    const { page, status } = await open('/web/book/subject/1/');
    expect(status).toBe(404);
    expect(await page.locator('h1').innerText()).toBe('Not found');
    await checkAccessible(page, 'not-found');
    await page.close();
  });

  it('signs in through /auth2/auth with PKCE: a wrong password shows the error, the right one redirects with a code the token endpoint exchanges', async () => {
    const app = Apps.public;
    const verifier = randomBytes(32).toString('base64url');
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    const state = randomBytes(8).toString('hex');
    const query = new URLSearchParams({
      client_id: app.clientId, redirect_uri: app.redirectUri, response_type: 'code', scope: 'book_basic_r', state, code_challenge: challenge, code_challenge_method: 'S256',
    });
    const page = await context.newPage();
    // the app's redirect URI: the browser is sent there, and the test stands in for the app
    const callback = new URL(app.redirectUri);
    const arrived: string[] = [];
    await page.route('**/*', (route) => {
      const url = route.request().url();
      if (url.startsWith(callback.origin)) {
        arrived.push(url);
        return route.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html><html lang="en"><title>app</title><p>signed in</p></html>' });
      }
      return url.startsWith(base) ? route.continue() : route.abort();
    });
    await page.goto(`${base}/auth2/auth?${query}`);
    expect(await page.locator('h1').innerText()).toContain('Allow');

    await page.getByLabel('User name').fill(Users.carol.uid);
    await page.getByLabel('Password').fill('not the password');
    await Promise.all([page.waitForLoadState('domcontentloaded'), page.getByRole('button', { name: 'Allow' }).click()]);
    expect(await page.getByRole('alert').innerText()).toBe('Wrong user name or password.');
    await screenshot(page, 'sign-in-wrong-password');

    await page.getByLabel('User name').fill(Users.carol.uid);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Allow' }).click();
    await page.waitForURL(`${callback.origin}/**`);
    expect(arrived).toHaveLength(1);
    const redirect = new URL(arrived[0]);
    expect(redirect.origin + redirect.pathname).toBe(app.redirectUri);
    expect(redirect.searchParams.get('state')).toBe(state);
    const code = redirect.searchParams.get('code');
    expect(code).toBeTruthy();
    await page.close();

    const exchanged = await post('/auth2/token', {
      form: { grant_type: 'authorization_code', client_id: app.clientId, code: code ?? '', redirect_uri: app.redirectUri, code_verifier: verifier },
    });
    expect(exchanged.status).toBe(200);
    expect(exchanged.body).toMatchObject({ token_type: 'Bearer', user_name: Users.carol.uid, scope: 'book_basic_r' });
  });
});
