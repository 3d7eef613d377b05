import { createHash, randomBytes } from 'node:crypto';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { tokenFor } from '../support/auth';
import { Apps, PASSWORD, Users } from '../support/fixtures';
import { post } from '../support/http';
import { stackInfo } from '../support/stack-info';
import { launchBrowser, onlyFrom, screenshot, seriousViolations } from './browser';

/**
 * The pages in a real browser (headless Chromium, docs/api/web.md): what a person sees on a book,
 * a movie, an event and a note page, with axe-core finding no serious or critical violation on
 * each, and a sign-in through /auth2/auth with PKCE, typed as a person would. Screenshots of every
 * page go to tmp/test-output/web.
 */

let browser: Browser;
let context: BrowserContext;
let base: string;

beforeAll(async () => {
  base = stackInfo().baseUrl;
  browser = await launchBrowser();
  context = await browser.newContext({ viewport: { width: 1024, height: 768 } });
}, 60_000);

afterAll(async () => {
  await context?.close();
  await browser?.close();
});

async function open(path: string): Promise<{ page: Page; status: number }> {
  const page = await context.newPage();
  await onlyFrom(page, base);
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
