import { useWindowVirtualizer } from '@tanstack/react-virtual';
import { useLayoutEffect, useRef, useState, type Key, type ReactNode } from 'react';
import './virtual-list.css';

export interface VirtualListProps<Item> {
  items: readonly Item[];
  /** Renders one row; the row element around it is the list item. */
  renderItem: (item: Item, index: number) => ReactNode;
  /** A stable key per item (defaults to the index). */
  getKey?: (item: Item, index: number) => Key;
  /** Expected row height in px before a row is measured; rows are measured once they render. */
  estimateSize?: number;
  /** Rows rendered beyond each edge of the screen, so fast scrolling shows no gaps. */
  overscan?: number;
  /** Accessible name of the list. */
  label?: string;
  className?: string;
}

/** Distance (px) from the top of the document to the list, which the window's scroll is measured against. */
function documentTop(element: HTMLElement): number {
  return element.getBoundingClientRect().top + window.scrollY;
}

/**
 * A long list that renders only the rows on screen plus a few either side, so the DOM stays the same
 * size with 100 or 10 000 items. The page itself scrolls (window virtualiser): on phones there is no
 * inner scroll area to get stuck in. Rows may differ in height; each is measured once shown. Screen
 * readers still learn the full length and each row's position (aria-setsize / aria-posinset).
 */
export function VirtualList<Item>({
  items,
  renderItem,
  getKey,
  estimateSize = 64,
  overscan = 8,
  label,
  className,
}: VirtualListProps<Item>) {
  const listRef = useRef<HTMLUListElement>(null);
  const [scrollMargin, setScrollMargin] = useState(0);
  // Rows not shown yet count with the largest size measured so far: with a fixed guess, the page grew
  // by hundreds of pixels on the first scroll and "Load more" moved away (issue 7, defect 7). Counting
  // high, the list can only get shorter as rows are measured, which never hides its end.
  const [measuredSize, setMeasuredSize] = useState<number | null>(null);

  // Content above the list can change height (banners, loaded summaries): follow its offset.
  useLayoutEffect(() => {
    const list = listRef.current;
    if (!list || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => setScrollMargin(documentTop(list)));
    observer.observe(document.body);
    return () => observer.disconnect();
  }, []);

  const virtualizer = useWindowVirtualizer({
    count: items.length,
    estimateSize: () => measuredSize ?? estimateSize,
    overscan,
    scrollMargin,
    getItemKey: getKey ? (index) => getKey(items[index]!, index) : undefined,
    // React 19 warns about flushSync inside render-phase updates; a frame of delay is invisible here.
    useFlushSync: false,
  });

  return (
    <ul
      ref={listRef}
      className={className ? `virtual-list ${className}` : 'virtual-list'}
      // Safari drops list semantics from lists without bullets unless the role is explicit.
      role="list"
      aria-label={label}
      style={{ height: virtualizer.getTotalSize() }}
    >
      {virtualizer.getVirtualItems().map((row) => (
        <li
          key={row.key}
          ref={(element) => {
            virtualizer.measureElement(element);
            if (element) {
              // Rounded up: the virtualiser keeps whole pixels (offsetHeight, rounded), so a row of
              // 75.6 px counts 76 once measured; an estimate of 75.6 would let the list grow by 0.4 px
              // for every row still to be measured.
              const size = Math.ceil(element.getBoundingClientRect().height);
              if (size > (measuredSize ?? 0)) setMeasuredSize(size);
            }
          }}
          data-index={row.index}
          className="virtual-list__row"
          aria-setsize={items.length}
          aria-posinset={row.index + 1}
          style={{ transform: `translateY(${row.start - scrollMargin}px)` }}
        >
          {renderItem(items[row.index]!, row.index)}
        </li>
      ))}
    </ul>
  );
}
