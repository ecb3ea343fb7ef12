/**
 * The carousel's numbers from docs/product/constants.md#business-constants, in one place so the component, its unit tests and the browser
 * tests agree on them.
 */
export const carouselTiming = {
  /** A drag shorter than this (px) settles back on the current card; this far or further moves one card. */
  swipeThreshold: 70,
  /** Length of the settle animation after a swipe, a dot or a key (ms). */
  settleDuration: 600,
  /** elastic.out(amplitude, period) of the settle animation. */
  elasticAmplitude: 0.5,
  elasticPeriod: 0.8,
  /** With pagination the carousel moves to its initial card this long after it appears (ms). */
  initialScrollDelay: 1000,
  /** How far (as a fraction of the drag) the cards follow the pointer past the first or last card. */
  rubberband: 0.15,
} as const;
