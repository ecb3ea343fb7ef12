import { useEffect, useRef, useState } from 'react';

/**
 * After a navigation the customer asked for (a link, Back or Forward), the focus moves to the new
 * page's main heading and the page's title is announced (WCAG 2.4.3; issue 10, finding 13: focus used
 * to stay on the link of the page before). Redirects the app makes by itself (start-up, the entry
 * route) leave the focus alone, so a page load still starts at the skip link.
 *
 * No clock decides what counts: the customer's navigation stays "pending" until they press a key or
 * a pointer again. While it is pending, every change of address (the loyalty entry's redirect to the
 * status page, however long its data takes) moves the focus to the heading once the new page shows
 * one, and a heading that replaces the focused one (a page that shows its frame, then its content, or
 * a Suspense fallback in between) takes the focus over.
 */
export function useFocusOnNavigation(location: string): string {
  const [announcement, setAnnouncement] = useState('');
  const pending = useRef(false);
  const previous = useRef(location);
  const watch = useRef<HeadingWatch | undefined>(undefined);

  useEffect(() => {
    const stop = () => {
      pending.current = false;
      watch.current?.stop();
      watch.current = undefined;
    };
    const onClick = (event: MouseEvent) => {
      const link = (event.target as Element | null)?.closest?.('a[href]');
      if (link && !event.defaultPrevented) pending.current = true;
    };
    const onHistory = () => {
      pending.current = true;
    };
    // A key or pointer press is the customer moving on: their next navigation asks again. (The
    // presses that start a navigation come before its click or popstate, so they end only the last.)
    document.addEventListener('keydown', stop, true);
    document.addEventListener('pointerdown', stop, true);
    document.addEventListener('click', onClick, true);
    window.addEventListener('popstate', onHistory);
    return () => {
      stop();
      document.removeEventListener('keydown', stop, true);
      document.removeEventListener('pointerdown', stop, true);
      document.removeEventListener('click', onClick, true);
      window.removeEventListener('popstate', onHistory);
    };
  }, []);

  useEffect(() => {
    if (previous.current === location) return;
    previous.current = location;
    if (!pending.current) return;
    watch.current ??= new HeadingWatch(setAnnouncement);
    watch.current.addressChanged();
  }, [location]);

  return announcement;
}

/** Watches the page for its heading while a navigation is pending. */
class HeadingWatch {
  private moveFocus = false;
  private readonly observer: MutationObserver;

  constructor(private readonly announce: (text: string) => void) {
    this.observer = new MutationObserver(() => this.check());
    this.observer.observe(document.body, {
      childList: true,
      subtree: true,
      attributes: true,
      attributeFilter: ['style', 'hidden'],
    });
    // The page's title is set after its heading shows (an effect): announce the title it ends with.
    const title = document.querySelector('title');
    if (title) this.observer.observe(title, { childList: true, characterData: true, subtree: true });
  }

  addressChanged(): void {
    this.moveFocus = true;
    this.check();
  }

  stop(): void {
    this.observer.disconnect();
  }

  private check(): void {
    const heading = shownHeading();
    const focused = document.activeElement;
    const focusLost = !focused || focused === document.body || !focused.isConnected;
    if (heading && (this.moveFocus || (focusLost && focused !== heading))) {
      if (!heading.hasAttribute('tabindex')) heading.setAttribute('tabindex', '-1');
      heading.focus();
      this.moveFocus = false;
    }
    if (heading && !this.moveFocus) this.announce(document.title);
  }
}

/** The main area's first level-one heading that is shown (not inside content React hid for a fallback). */
function shownHeading(): HTMLElement | undefined {
  for (const heading of document.querySelectorAll<HTMLElement>('#main h1')) {
    if (!hiddenWithin(heading)) return heading;
  }
  return undefined;
}

function hiddenWithin(element: HTMLElement): boolean {
  for (let node: HTMLElement | null = element; node && node.id !== 'main'; node = node.parentElement) {
    if (node.hidden || node.style.display === 'none') return true;
  }
  return false;
}
