import { existsSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { chromium } from 'playwright-core';

/**
 * The system's Chromium (Debian's `chromium` package; `.ci/run` installs it when missing), driven by
 * playwright-core, which downloads no browser of its own. `CHROMIUM_PATH` names another binary.
 */
export function chromiumPath(): string {
  const candidates = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].filter((p): p is string => !!p);
  const found = candidates.find((p) => existsSync(p));
  if (!found) throw new Error(`no Chromium found (tried ${candidates.join(', ')}): apt-get install -y chromium, or set CHROMIUM_PATH`);
  return found;
}

export async function launchBrowser(): Promise<Browser> {
  // as root (CI containers) Chromium runs only without its sandbox; /dev/shm is small in containers
  return chromium.launch({ executablePath: chromiumPath(), headless: true, args: ['--no-sandbox', '--disable-dev-shm-usage', '--disable-gpu'] });
}

/** Screenshots go to tmp/test-output/web (gitignored), one per page checked. */
export const SCREENSHOT_DIR = resolve(__dirname, '../../../../tmp/test-output/web');

export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}.png`), fullPage: true });
}

/**
 * Only the gateway is reached: the records' picture addresses on other hosts (example hosts) are
 * refused at once, not waited for, unless `pictureHosts` names the host: the test then stands in
 * for that catalogue's picture host and answers every address on it with `picture`.
 */
export async function onlyFrom(page: Page, baseUrl: string, pictureHosts: Record<string, Buffer> = {}): Promise<void> {
  const allowed = new URL(baseUrl).origin;
  await page.route('**/*', (route) => {
    const url = route.request().url();
    if (url.startsWith(allowed)) return route.continue();
    const picture = pictureHosts[new URL(url).origin];
    return picture ? route.fulfill({ status: 200, contentType: 'image/png', body: picture }) : route.abort();
  });
}

/**
 * Whether a picture is drawn: scrolled into view (pages load pictures lazily), then its natural
 * width once the browser is done with it (0 for one that failed to load or to decode).
 */
export async function drawnWidth(picture: Locator): Promise<number> {
  await picture.scrollIntoViewIfNeeded();
  const handle = await picture.elementHandle();
  if (!handle) throw new Error('no such picture');
  const page = picture.page();
  await page.waitForFunction((img) => (img as unknown as { complete: boolean }).complete, handle);
  return page.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth, handle);
}

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: Array<{ target: string[] }>;
}

/**
 * axe-core run in the page. Its source is evaluated through the DevTools protocol, which the page's
 * Content-Security-Policy (no script) does not govern, so the page is checked as it is served.
 */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  const source = (require('axe-core') as { source: string }).source;
  await page.evaluate(source);
  const result = await page.evaluate(async () => {
    const axe = (globalThis as unknown as { axe: { run: (ctx: unknown, opts: unknown) => Promise<{ violations: AxeViolation[] }> } }).axe;
    const run = await axe.run((globalThis as unknown as { document: unknown }).document, { resultTypes: ['violations'] });
    return run.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => ({ target: n.target })) }));
  });
  return result;
}

/** The violations a person would be stopped by: axe's `serious` and `critical`. */
export async function seriousViolations(page: Page): Promise<AxeViolation[]> {
  return (await axeViolations(page)).filter((v) => v.impact === 'serious' || v.impact === 'critical');
}
