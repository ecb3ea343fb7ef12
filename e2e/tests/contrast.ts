import { inflateSync } from 'node:zlib';
import type { Locator, Page } from '@playwright/test';

type Rgb = [number, number, number];

/** The colour of one CSS pixel of the page as drawn (a 1 × 1 screenshot, decoded). */
export async function pixelAt(page: Page, x: number, y: number): Promise<Rgb> {
  const png = await page.screenshot({ clip: { x, y, width: 1, height: 1 }, scale: 'css' });
  // A PNG of one pixel: its IDAT data inflates to a filter byte and the pixel (every filter of a
  // single first-row pixel leaves its bytes as they are).
  const chunks: Buffer[] = [];
  let colourType = 2;
  for (let offset = 8; offset < png.length;) {
    const length = png.readUInt32BE(offset);
    const type = png.toString('ascii', offset + 4, offset + 8);
    if (type === 'IHDR') colourType = png[offset + 8 + 9]!;
    if (type === 'IDAT') chunks.push(png.subarray(offset + 8, offset + 8 + length));
    offset += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(chunks));
  if (colourType !== 2 && colourType !== 6) throw new Error(`Unexpected PNG colour type ${colourType}`);
  return [raw[1]!, raw[2]!, raw[3]!];
}

const luminance = ([r, g, b]: Rgb) => {
  const channel = (value: number) => {
    const c = value / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
};

/** The WCAG contrast ratio of two colours. */
export function contrast(a: Rgb, b: Rgb): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

/**
 * How the focused element's ring stands out (WCAG 1.4.11): on each of its four sides, the ring's colour
 * against what is drawn just outside it, measured on the screen as it is.
 */
export async function focusRingContrasts(target: Locator): Promise<Record<string, number>> {
  const page = target.page();
  const ring = await target.evaluate((element) => {
    const style = getComputedStyle(element);
    const box = element.getBoundingClientRect();
    return {
      box: { left: box.left, top: box.top, right: box.right, bottom: box.bottom },
      offset: parseFloat(style.outlineOffset) || 0,
      width: parseFloat(style.outlineWidth) || 0,
      style: style.outlineStyle,
    };
  });
  if (ring.style === 'none' || ring.width === 0) return { ring: 0 };
  const { box, offset, width } = ring;
  const middle = offset + width / 2;
  const outside = offset + width + 1.5;
  const centreX = (box.left + box.right) / 2;
  const centreY = (box.top + box.bottom) / 2;
  const sides = {
    top: [
      [centreX, box.top - middle],
      [centreX, box.top - outside],
    ],
    bottom: [
      [centreX, box.bottom + middle],
      [centreX, box.bottom + outside],
    ],
    left: [
      [box.left - middle, centreY],
      [box.left - outside, centreY],
    ],
    right: [
      [box.right + middle, centreY],
      [box.right + outside, centreY],
    ],
  } as const;
  const result: Record<string, number> = {};
  for (const [side, [[rx, ry], [ax, ay]]] of Object.entries(sides)) {
    const ringColour = await pixelAt(page, Math.floor(rx), Math.floor(ry));
    const around = await pixelAt(page, Math.floor(ax), Math.floor(ay));
    result[side] = Math.round(contrast(ringColour, around) * 100) / 100;
  }
  return result;
}
