import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import type { AxeResults } from 'axe-core';
import { languages, legalEntityByCountry } from '@roadpass/contracts';
import { routes } from '../../apps/web/src/config/routes.js';
import { applyTextSpacing, clippedTexts, scrollsSideways } from './reflow.js';
import { exclusively, loyaltyProgramme, openLoyalty, readers, texts } from './support.js';

// Issue 10, the project's own checks: axe (WCAG 2.2 AA) and reflow at 320 px on every page of the app
// in all eight languages. The pages come from the app's route table (apps/web/src/config/routes.ts), so a page
// added there is checked without anyone listing it here; a route whose address needs a value this
// file cannot make up fails the check until one is added below.

/** Routes that are not pages a customer reads: the sign-in callback and the root that redirects. */
const notPages = new Set(['authCallback', 'root']);

interface RouteEntry {
  build?: (...args: string[]) => string;
  href?: (...args: string[]) => string;
}

/** Every page address of the route table for one reader, named by its place in the table. */
function pageAddresses(country: string, language: string): [string, string][] {
  const reward = loyaltyProgramme().rewards.find((r) => r.legalEntities.includes(country)) ?? {
    slug: 'unknown-reward',
  };
  const addresses: [string, string][] = [];
  const visit = (node: Record<string, unknown>, trail: string[]) => {
    for (const [key, value] of Object.entries(node)) {
      if (!value || typeof value !== 'object' || value instanceof RegExp) continue;
      const name = [...trail, key].join('.');
      const entry = value as RouteEntry;
      const make = entry.href ?? entry.build;
      if (typeof make !== 'function') {
        visit(value as Record<string, unknown>, [...trail, key]);
        continue;
      }
      if (notPages.has(name)) continue;
      if (make.length === 0) addresses.push([name, make()]);
      else if (make.length === 2) addresses.push([name, make(country, language)]);
      else if (make.length === 1 && key === 'reward') addresses.push([name, make(reward.slug)]);
      // A token page (newsletter unsubscribe, e-mail confirmation) opened with a token nobody holds:
      // its "unknown link" state is what is checked here; the flows have their own tests.
      else if (make.length === 1) addresses.push([name, make('axe-check-unknown-token-0000000000')]);
      else
        throw new Error(`No sample address for route ${name}: add one to accessibility-every-page.spec.ts`);
    }
  };
  visit(routes as unknown as Record<string, unknown>, []);
  addresses.push(['not found', '/no-such-page-for-axe']);
  return addresses;
}

type Watched = Window & { spinnerWatch?: { observer: MutationObserver; seen: boolean } };

/**
 * Navigates inside the running app (as a link would), so the session and language stay, watching
 * that no spinner takes the place of the pages on the way: the page before stays until the next one
 * can show (app/page-location.ts; before, the spinner showed while the next page's code loaded, and
 * React then held the page back for 300 ms).
 */
async function navigateInApp(page: Page, address: string): Promise<void> {
  await page.evaluate((target) => {
    const shows = (selector: string) =>
      Array.from(document.querySelectorAll(selector)).some((element) => element.checkVisibility());
    const watch = {
      seen: false,
      // React hides a suspended page (display: none) and shows its fallback; a redirect shows nothing
      // for a moment, which is no spinner.
      observer: new MutationObserver(() => {
        if (!shows('main h1') && shows('main .spinner')) watch.seen = true;
      }),
    };
    watch.observer.observe(document.body, { childList: true, subtree: true, attributes: true });
    (window as Watched).spinnerWatch = watch;
    window.history.pushState(null, '', target);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, address);
}

/** Whether a spinner showed without a page heading at some moment since navigateInApp. */
async function spinnerShowedInstead(page: Page): Promise<boolean> {
  return page.evaluate(() => {
    const watch = (window as Watched).spinnerWatch;
    watch?.observer.disconnect();
    return watch?.seen ?? false;
  });
}

/**
 * What a page still lacks before it counts as come; runs in the page. As a wait's predicate
 * (`report` false) it answers whether the page has come.
 */
function pageUnsettled({ lang, report }: { lang: string; report: boolean }): string[] | boolean {
  const heading = document.querySelector('h1');
  const lacks: string[] = [];
  if (heading === null) lacks.push('no h1');
  else if (
    !heading.checkVisibility({ visibilityProperty: true }) ||
    heading.getBoundingClientRect().height === 0
  )
    lacks.push(`h1 "${heading.textContent?.trim()}" not visible`);
  if (document.querySelector('.spinner') !== null) lacks.push('a .spinner is in the page');
  if (document.documentElement.lang !== lang) lacks.push(`lang is "${document.documentElement.lang}"`);
  // Cards still fading or sliding in are no colours to check contrast against.
  for (const animation of document.getAnimations()) {
    if (animation.playState !== 'running' || animation.effect?.getTiming().iterations === Infinity) continue;
    const target = (animation.effect as KeyframeEffect | null)?.target;
    const name =
      animation instanceof CSSTransition
        ? `transition of ${animation.transitionProperty}`
        : animation instanceof CSSAnimation
          ? `animation ${animation.animationName}`
          : 'animation';
    lacks.push(`${name} running on ${target ? `${target.tagName.toLowerCase()}.${target.className}` : '?'}`);
  }
  return report ? lacks : lacks.length === 0;
}

/**
 * The page has come: its heading shows, nothing loads or moves any more, and it speaks the reader's
 * language.
 * Checked in the page every 25 ms: Playwright's assertions retry 100, 250, 500 ms apart, which made
 * waiting for each page take 400 ms, a third of this check's time. On a timer, not at every animation
 * frame: headless Chromium can stop sending a page frames while its state is right, and a wait polled
 * by frames then never ends. That is the likely cause of the German phone check's 240 s time-out on
 * 29 Nov, with the heading shown (the failure said no more). A page that has not come within 30 s now
 * fails with what it still lacks, or says that it lacks nothing.
 */
async function settled(page: Page, language: string): Promise<void> {
  try {
    await page.waitForFunction(
      pageUnsettled,
      { lang: language, report: false },
      { polling: 25, timeout: 30_000 },
    );
  } catch (error) {
    const lacks = await page
      .evaluate(pageUnsettled, { lang: language, report: true })
      .catch(() => ['(page gone)']);
    const what = Array.isArray(lacks) && lacks.length === 0 ? 'it lacks nothing now' : String(lacks);
    throw new Error(`${page.url()} has not settled in 30 s: ${what}`, { cause: error });
  }
}

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const wcagTags = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

/**
 * axe-core's violations on the page. Pages change inside the app (no reload), so axe is injected once
 * per document and run in the page itself; @axe-core/playwright injects it again and opens a helper
 * page on every call, which made this check take most of the browser suite's time.
 */
async function violations(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource);
  const result = await page.evaluate(
    (tags) =>
      (window as unknown as { axe: { run: (c: Document, o: object) => Promise<AxeResults> } }).axe.run(
        document,
        { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] },
      ),
    wcagTags,
  );
  return result.violations.map(
    (violation) =>
      `${violation.id}: ${violation.help} (${violation.nodes.map((node) => node.target.join(' ')).join(', ')})`,
  );
}

/**
 * WCAG 1.4.10 (reflow) and 1.4.12 (text spacing) in one pass: at 320 CSS px with the text-spacing
 * bookmarklet's styles the page scrolls only vertically and no text is cut off. Text spacing only
 * widens text, so a page that passes this also reflows without it, and 320 px is the narrowest width
 * either criterion asks for (one pass instead of three: decision 0003, issue 17 #31).
 * Issue 17 #19: the footer comes once the browser is idle, so the check waits for it (its "Daten-
 * schutzeinstellungen" made every German page scroll sideways at 320 px, unseen by a check before it).
 */
async function reflowProblems(page: Page): Promise<string[]> {
  await expect(page.locator('.shell__footer')).toBeVisible();
  const size = page.viewportSize()!;
  await page.setViewportSize({ width: 320, height: size.height });
  const remove = await applyTextSpacing(page);
  const where = 'at 320 px with text spacing';
  // A carousel glides to its card again after a resize: what is cut off for a moment does not count.
  let found: string[] = [];
  for (let attempt = 0; attempt < 5; attempt++) {
    found = (await scrollsSideways(page)) ? [`scrolls sideways ${where}`] : [];
    for (const clipped of await clippedTexts(page)) found.push(`${where}: ${clipped}`);
    if (found.length === 0) break;
    await page.waitForTimeout(400);
  }
  await remove();
  await page.setViewportSize(size);
  return found;
}

/**
 * The document title names the page and then the app (WCAG 2.4.2): "<page> · Roadpass", where the page
 * part is the main heading, or on the account home (whose heading is the customer's name) its title.
 */
async function titleProblems(page: Page, language: string): Promise<string[]> {
  const [title, heading] = await page.evaluate(() => [
    document.title,
    document.querySelector('h1')?.textContent?.trim() ?? '',
  ]);
  const named = title.endsWith(' · Roadpass') ? title.slice(0, -' · Roadpass'.length) : '';
  const ok = named !== '' && (named === heading || named === texts(language)['account-home-title']);
  return ok ? [] : [`title "${title}" does not name the page "${heading}"`];
}

test.describe('every page passes axe (WCAG 2.2 AA), reflows at 320 px and keeps its text with text spacing', () => {
  test.describe.configure({ timeout: 240_000 });

  for (const language of languages) {
    // Each language once: at phone size the four with the longest words (German, Hungarian, French,
    // Italian), at desktop size the other four. Every page is checked at 320 px with text spacing in
    // all eight either way (reflowProblems), and at 390 and 320 px frame-layout.spec.ts checks the
    // frame in all eight (decision 0003, update of 29 Nov 2026).
    const tag = ['de', 'hu', 'fr', 'it'].includes(language) ? ' @phone-size-only' : ' @desktop-size-only';
    test(`in ${language}${tag}`, async ({ page }) => {
      const reader = readers[language]!;
      // Specs that change a reader's shared state (password, language) hold the same lock.
      await exclusively(reader.email, async () => {
        expect(legalEntityByCountry(reader.country)?.languages).toContain(language);
        await openLoyalty(page, reader.email, '/status', `${language}-${reader.country}`);
        await settled(page, language);

        const found: string[] = [];
        const addresses = pageAddresses(reader.country, language);
        expect(addresses.length).toBeGreaterThanOrEqual(14);
        for (const [name, address] of addresses) {
          await navigateInApp(page, address);
          await settled(page, language);
          if (await spinnerShowedInstead(page))
            found.push(`${name} (${address}): a spinner took the page's place`);
          if (process.env.AXE_DEBUG)
            console.log(name, page.url(), await page.locator('h1').first().innerText());
          for (const violation of await violations(page)) found.push(`${name} (${address}): ${violation}`);
          for (const problem of [...(await titleProblems(page, language)), ...(await reflowProblems(page))])
            found.push(`${name} (${address}): ${problem}`);
        }
        expect(found).toEqual([]);
      });
    });
  }
});
