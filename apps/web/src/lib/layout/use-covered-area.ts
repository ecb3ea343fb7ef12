import { useLayoutEffect, type RefObject } from 'react';

/**
 * Publishes how much of the viewport a fixed layer covers as a CSS custom property on <html>, for as
 * long as the layer is mounted: the shell turns it into scroll padding, so that an element reached by
 * Tab is scrolled clear of the layer instead of sitting under it (WCAG 2.4.11 Focus Not Obscured).
 * `measure` returns the length in px, or null when the layer covers nothing.
 */
export function useCoveredArea(
  ref: RefObject<HTMLElement | null>,
  property: `--${string}`,
  measure: (element: HTMLElement) => number | null,
): void {
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    const root = document.documentElement;
    const update = () => {
      const length = measure(element);
      if (length === null || length <= 0) root.style.removeProperty(property);
      else root.style.setProperty(property, `${Math.ceil(length)}px`);
    };
    update();
    // Without ResizeObserver (old browsers, jsdom) the length is read at mount and on window resizes.
    const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(update);
    observer?.observe(element);
    window.addEventListener('resize', update);
    return () => {
      observer?.disconnect();
      window.removeEventListener('resize', update);
      root.style.removeProperty(property);
    };
  }, [ref, property, measure]);
}
