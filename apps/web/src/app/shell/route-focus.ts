import { useEffect, useRef, useState } from 'react';

/** How long a new page may take (a lazy chunk, its data) before its heading is looked for no more. */
const HEADING_WAIT_MS = 5_000;
/** Redirects within this time after the customer's navigation (the loyalty entry → status) follow it. */
const REDIRECT_WINDOW_MS = 3_000;

/**
 * After a navigation the customer asked for (a link, Back or Forward), the focus moves to the new
 * page's main heading and the page's title is announced (WCAG 2.4.3; issue 10, finding 13: focus used
 * to stay on the link of the page before). Redirects the app makes by itself (start-up, the entry
 * route) leave the focus alone, so a page load still starts at the skip link.
 */
export function useFocusOnNavigation(location: string): string {
  const [announcement, setAnnouncement] = useState('');
  // When the customer last asked for a navigation (a link, Back, Forward); -Infinity: not yet.
  const askedAt = useRef(-Infinity);
  const previous = useRef(location);

  useEffect(() => {
    const onClick = (event: MouseEvent) => {
      const link = (event.target as Element | null)?.closest?.('a[href]');
      if (link && !event.defaultPrevented) askedAt.current = Date.now();
    };
    const onHistory = () => {
      askedAt.current = Date.now();
    };
    document.addEventListener('click', onClick, true);
    window.addEventListener('popstate', onHistory);
    return () => {
      document.removeEventListener('click', onClick, true);
      window.removeEventListener('popstate', onHistory);
    };
  }, []);

  useEffect(() => {
    if (previous.current === location) return;
    previous.current = location;
    if (Date.now() - askedAt.current > REDIRECT_WINDOW_MS) return;
    const until = Date.now() + HEADING_WAIT_MS;
    let frame = 0;
    const focusHeading = () => {
      const heading = document.querySelector<HTMLElement>('#main h1');
      if (!heading) {
        if (Date.now() < until) frame = requestAnimationFrame(focusHeading);
        return;
      }
      if (!heading.hasAttribute('tabindex')) heading.setAttribute('tabindex', '-1');
      heading.focus();
      setAnnouncement(document.title);
    };
    frame = requestAnimationFrame(focusHeading);
    return () => cancelAnimationFrame(frame);
  }, [location]);

  return announcement;
}
