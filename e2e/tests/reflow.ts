import type { Page } from '@playwright/test';

/**
 * The WCAG 1.4.12 text-spacing bookmarklet's styles: line height 1.5, letter spacing 0.12em, word
 * spacing 0.16em, and 2em after each paragraph. Content must stay whole with them.
 */
export const textSpacingCss = `
*, *::before, *::after {
  line-height: 1.5 !important;
  letter-spacing: 0.12em !important;
  word-spacing: 0.16em !important;
}
p { margin-bottom: 2em !important; }
`;

/** Adds the text-spacing styles to the page (until it is loaded again); returns how to remove them. */
export async function applyTextSpacing(page: Page): Promise<() => Promise<void>> {
  const id = `text-spacing-${Date.now()}`;
  await page.evaluate(
    ({ css, id }) => {
      const style = document.createElement('style');
      style.id = id;
      style.textContent = css;
      document.head.append(style);
    },
    { css: textSpacingCss, id },
  );
  return () => page.evaluate((id) => document.getElementById(id)?.remove(), id);
}

/** WCAG 1.4.10: the page scrolls sideways (wider than the viewport). */
export function scrollsSideways(page: Page): Promise<boolean> {
  return page.evaluate(() => document.scrollingElement!.scrollWidth > window.innerWidth);
}

/**
 * Text that is cut off: a line of text reaching past the viewport's sides, or past the edge of a box
 * that clips it (overflow hidden, or one that scrolls). Text that is hidden on purpose is left out:
 * visually hidden helpers (1 px boxes), and what is aria-hidden or inert (a carousel's other slides).
 * Returns the cut texts, each with how far it reaches past the edge.
 */
export function clippedTexts(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const problems: string[] = [];
    const viewportWidth = document.documentElement.clientWidth;
    const clips = (element: Element) => {
      const style = getComputedStyle(element);
      return { x: style.overflowX !== 'visible', y: style.overflowY !== 'visible' };
    };
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent?.trim();
      const parent = node.parentElement;
      if (!text || !parent) continue;
      if (parent.closest('[aria-hidden="true"], [inert], script, style, template, noscript')) continue;
      const range = document.createRange();
      range.selectNodeContents(node);
      const rects = Array.from(range.getClientRects()).filter((r) => r.width > 0 && r.height > 0);
      if (rects.length === 0) continue;
      // A visually hidden helper: its box is 1 px and clips on purpose.
      let hidden = false;
      for (let element: Element | null = parent; element; element = element.parentElement) {
        const box = element.getBoundingClientRect();
        if (box.width <= 1 || box.height <= 1) {
          hidden = true;
          break;
        }
      }
      if (hidden) continue;
      const label = `"${text.slice(0, 60)}" in <${parent.tagName.toLowerCase()} class="${parent.className}">`;
      for (const rect of rects) {
        if (rect.left < -0.5 || rect.right > viewportWidth + 0.5) {
          problems.push(
            `${label} reaches past the viewport (${Math.round(rect.left)}–${Math.round(rect.right)} of ${viewportWidth})`,
          );
          break;
        }
        let cut = '';
        for (
          let element: Element | null = parent;
          element && element !== document.body;
          element = element.parentElement
        ) {
          const clip = clips(element);
          if (!clip.x && !clip.y) continue;
          const box = element.getBoundingClientRect();
          if (clip.x && (rect.left < box.left - 0.5 || rect.right > box.right + 0.5)) {
            cut = `its box <${element.tagName.toLowerCase()} class="${element.className}"> sideways (${Math.round(rect.right - box.right)} px)`;
            break;
          }
          // Below a box that scrolls, text is reachable; below one that hides its overflow, it is not.
          const scrolls = ['auto', 'scroll'].includes(getComputedStyle(element).overflowY);
          if (clip.y && !scrolls && (rect.top < box.top - 0.5 || rect.bottom > box.bottom + 0.5)) {
            cut = `its box <${element.tagName.toLowerCase()} class="${element.className}"> at the bottom`;
            break;
          }
        }
        if (cut) {
          problems.push(`${label} is cut off by ${cut}`);
          break;
        }
      }
    }
    return problems;
  });
}
