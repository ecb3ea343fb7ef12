import { useDrag } from '@use-gesture/react';
import {
  Children,
  useEffect,
  useEffectEvent,
  useLayoutEffect,
  useRef,
  useState,
  type KeyboardEvent,
  type ReactNode,
} from 'react';
import { useTranslation } from '@/lib/i18n/use-translation';
import { Icon } from '@/components/tier-icon';
import { animateOffset, prefersReducedMotion } from './animate-offset';
import { measureCarousel, visibleCards, type CarouselLayout } from './carousel-layout';
import { carouselTiming } from './carousel-timing';
import { elasticOut } from './elastic-ease';
import { clampCard, snapTarget } from './snap';
import './carousel.css';

export interface CarouselProps {
  /** The cards, one child each. */
  children: ReactNode;
  /** Accessible name of the carousel region, e.g. "Loyalty tiers". */
  label: string;
  /** Class of the card container (docs/product/data.md#entities-and-fields), next to `carousel__cards`. */
  className?: string;
  /** Index of the card to show (docs/product/data.md#entities-and-fields, default 0); with pagination it is scrolled to after 1000 ms. */
  initialCard?: number;
  /** Pager dots under the cards (docs/product/data.md#entities-and-fields, default false). */
  showPagination?: boolean;
  /** Previous/next buttons (default true). */
  showArrows?: boolean;
  /** Accessible name of a card, given its 0-based index; default "3 of 4". */
  cardLabel?: (index: number, count: number) => string;
  /** Called with the 0-based index whenever the current card changes. */
  onCardChange?: (index: number) => void;
}

const settleEasing = elasticOut(carouselTiming.elasticAmplitude, carouselTiming.elasticPeriod);

/** Keys that move the carousel while it (or one of its own buttons) has focus. */
const keyTargets: Record<string, (current: number, count: number) => number> = {
  ArrowLeft: (current) => current - 1,
  ArrowRight: (current) => current + 1,
  Home: () => 0,
  End: (_, count) => count - 1,
};

/**
 * A horizontal card carousel (docs/product/data.md#entities-and-fields, docs/product/states.md#states-and-transitions, docs/product/constants.md#business-constants). Cards follow a horizontal drag (mouse, pen or touch;
 * vertical page scrolling stays with the browser); on release it settles with an elastic ease-out on
 * the next or previous card when the drag covered 70 px, otherwise back on the current one, never past
 * the first or last card. Arrow keys, Home and End, the previous/next buttons and the pager dots move it
 * too; screen readers hear the new card through a polite live region.
 */
export function Carousel({
  children,
  label,
  className,
  initialCard = 0,
  showPagination = false,
  showArrows = true,
  cardLabel,
  onCardChange,
}: CarouselProps) {
  const { t } = useTranslation();
  const cards = Children.toArray(children);
  const count = cards.length;
  // With pagination the carousel starts on the first card and moves to the initial one after a second.
  const [chosenCard, setCurrent] = useState(() => (showPagination ? 0 : clampCard(initialCard, count)));
  // Fewer cards than before (new children) keep the last one current.
  const current = clampCard(chosenCard, count);
  const [layout, setLayout] = useState<CarouselLayout | null>(null);
  const [announcement, setAnnouncement] = useState('');

  const rootRef = useRef<HTMLElement>(null);
  const viewportRef = useRef<HTMLDivElement>(null);
  const containerRef = useRef<HTMLDivElement>(null);
  const currentRef = useRef(current);
  const layoutRef = useRef<CarouselLayout | null>(null);
  const offsetRef = useRef(0);
  const stopAnimationRef = useRef<(() => void) | null>(null);
  const initialScrollRef = useRef<ReturnType<typeof setTimeout> | null>(null);
  const suppressClickRef = useRef(false);
  const dragStartOffsetRef = useRef(0);
  const pointerDownRef = useRef(false);

  const labelOf = (index: number) =>
    cardLabel ? cardLabel(index, count) : t('carousel-slide-label', { index: index + 1, count });

  const applyOffset = (offset: number) => {
    offsetRef.current = offset;
    if (containerRef.current) containerRef.current.style.transform = `translate3d(${offset}px, 0, 0)`;
  };

  const stopAnimation = () => {
    stopAnimationRef.current?.();
    stopAnimationRef.current = null;
  };

  const cancelInitialScroll = () => {
    if (initialScrollRef.current !== null) clearTimeout(initialScrollRef.current);
    initialScrollRef.current = null;
  };

  /** Moves the cards to the settled position of `index`, with the elastic ease unless told otherwise. */
  const settle = (index: number, animate: boolean) => {
    stopAnimation();
    const target = layoutRef.current?.cardOffsets[index] ?? 0;
    const from = offsetRef.current;
    if (!animate || from === target || prefersReducedMotion()) {
      applyOffset(target);
      return;
    }
    stopAnimationRef.current = animateOffset({
      from,
      to: target,
      duration: carouselTiming.settleDuration,
      easing: settleEasing,
      onUpdate: applyOffset,
      onComplete: () => {
        stopAnimationRef.current = null;
      },
    });
  };

  const goTo = (index: number, { announce = true }: { announce?: boolean } = {}) => {
    cancelInitialScroll();
    const next = clampCard(index, count);
    const changed = next !== currentRef.current;
    currentRef.current = next;
    setCurrent(next);
    settle(next, true);
    if (!changed) return;
    onCardChange?.(next);
    if (announce) {
      setAnnouncement(cardLabel ? labelOf(next) : t('carousel-announcement', { index: next + 1, count }));
    }
  };

  // Measure the cards whenever they change size (fonts, images, rotation) or in number, and keep the
  // current card in place without animation.
  const onMeasured = useEffectEvent((next: CarouselLayout) => {
    layoutRef.current = next;
    setLayout(next);
    stopAnimation();
    applyOffset(next.cardOffsets[currentRef.current] ?? 0);
  });
  useLayoutEffect(() => {
    const viewport = viewportRef.current;
    const container = containerRef.current;
    if (!viewport || !container || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => onMeasured(measureCarousel(viewport, container)));
    observer.observe(viewport);
    for (const card of container.children) observer.observe(card);
    return () => observer.disconnect();
  }, [count]);

  // docs/product/states.md#states-and-transitions: on load with pagination, scroll to the initial card after 1000 ms.
  const scrollToInitialCard = useEffectEvent(() => {
    initialScrollRef.current = null;
    goTo(initialCard, { announce: false });
  });
  useEffect(() => {
    if (!showPagination || initialCard === 0) return;
    initialScrollRef.current = setTimeout(scrollToInitialCard, carouselTiming.initialScrollDelay);
    return cancelInitialScroll;
    // Only on load: a later change of initialCard does not scroll again.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  useEffect(() => () => stopAnimationRef.current?.(), []);

  const bindDrag = useDrag(
    ({
      first,
      active,
      last,
      tap,
      xy: [x],
      initial: [x0],
      offset: [offset],
      velocity: [speed],
      direction: [dir],
    }) => {
      // The drag distance is the pointer's own travel: use-gesture's movement leaves out its 3 px tap
      // threshold and the rubber band, and docs/product/constants.md#business-constants's 70 px is about what the finger did.
      const viewport = viewportRef.current;
      if (first) {
        cancelInitialScroll();
        stopAnimation();
        dragStartOffsetRef.current = offsetRef.current;
        viewport?.classList.add('carousel__viewport--dragging');
      }
      if (active) applyOffset(offset);
      if (!last) return;
      viewport?.classList.remove('carousel__viewport--dragging');
      // A drag that moved the cards must not also "click" a link or button on the card it ended on.
      suppressClickRef.current = !tap;
      const distance = x - x0;
      const target = snapTarget({
        cardOffsets: layoutRef.current?.cardOffsets ?? [],
        startOffset: dragStartOffsetRef.current,
        movement: tap ? 0 : distance,
        velocity: speed * dir,
      });
      goTo(tap ? currentRef.current : target);
    },
    {
      axis: 'x',
      filterTaps: true,
      // Keys are handled below, one card per press.
      pointer: { keys: false },
      from: () => [offsetRef.current, 0],
      bounds: () => {
        const offsets = layoutRef.current?.cardOffsets ?? [0];
        return { left: Math.min(...offsets), right: Math.max(...offsets) };
      },
      rubberband: carouselTiming.rubberband,
    },
  );

  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    const target = event.target as HTMLElement;
    const ownTarget = target === rootRef.current || target.dataset.carouselControl !== undefined;
    const move = keyTargets[event.key];
    if (!ownTarget || !move || event.altKey || event.ctrlKey || event.metaKey) return;
    event.preventDefault();
    goTo(move(current, count));
  };

  const visible = visibleCards(layout, current, count);
  const atStart = current === 0;
  const atEnd = current >= count - 1;

  return (
    <section
      ref={rootRef}
      className="carousel"
      role="region"
      aria-roledescription={t('carousel-roledescription')}
      aria-label={label}
      tabIndex={0}
      onKeyDown={onKeyDown}
    >
      {/* The pager first: in reach without scrolling past a tall card (issue 7, defect 3). */}
      {count > 1 && (showArrows || showPagination) && (
        <div className="carousel__controls">
          {showArrows && (
            <button
              type="button"
              className="carousel__arrow"
              data-carousel-control=""
              aria-label={t('carousel-previous')}
              aria-disabled={atStart || undefined}
              onClick={() => !atStart && goTo(current - 1)}
            >
              <Icon name="chevron-left" size="xs" />
            </button>
          )}
          {showPagination && (
            <div className="carousel__dots" role="group" aria-label={t('carousel-pagination')}>
              {cards.map((card, index) => (
                <button
                  key={(card as { key?: string | null }).key ?? index}
                  type="button"
                  className={index === current ? 'carousel__dot carousel__dot--active' : 'carousel__dot'}
                  data-carousel-control=""
                  aria-label={t('carousel-go-to', { index: index + 1, count })}
                  aria-current={index === current ? 'true' : undefined}
                  onClick={() => goTo(index)}
                />
              ))}
            </div>
          )}
          {showArrows && (
            <button
              type="button"
              className="carousel__arrow"
              data-carousel-control=""
              aria-label={t('carousel-next')}
              aria-disabled={atEnd || undefined}
              onClick={() => !atEnd && goTo(current + 1)}
            >
              <Icon name="chevron-right" size="xs" />
            </button>
          )}
        </div>
      )}

      <div
        ref={viewportRef}
        className="carousel__viewport"
        {...bindDrag()}
        onClickCapture={(event) => {
          if (!suppressClickRef.current) return;
          suppressClickRef.current = false;
          event.preventDefault();
          event.stopPropagation();
        }}
        onPointerDownCapture={() => {
          suppressClickRef.current = false;
          pointerDownRef.current = true;
        }}
        onPointerUpCapture={() => {
          pointerDownRef.current = false;
        }}
        onPointerCancelCapture={() => {
          pointerDownRef.current = false;
        }}
        onDragStart={(event) => event.preventDefault()}
        // Tabbing into a neighbour that is fully in view makes it the current card (a press of the
        // pointer does not: moving the cards under it would lose the click).
        onFocus={(event) => {
          const card = (event.target as HTMLElement).closest<HTMLElement>('[data-card-index]');
          const index = Number(card?.dataset.cardIndex);
          if (card && index !== current && !pointerDownRef.current) goTo(index);
        }}
        // The browser scrolls a clipped box to reveal focus; the cards move by transform only.
        onScroll={(event) => {
          event.currentTarget.scrollLeft = 0;
        }}
      >
        <div ref={containerRef} className={className ? `carousel__cards ${className}` : 'carousel__cards'}>
          {cards.map((card, index) => (
            <div
              // Children.toArray gives each card a stable key.
              key={(card as { key?: string | null }).key ?? index}
              className={index === current ? 'carousel__card carousel__card--current' : 'carousel__card'}
              data-card-index={index}
              role="group"
              aria-roledescription={t('carousel-slide-roledescription')}
              aria-label={labelOf(index)}
              aria-hidden={visible[index] ? undefined : true}
              inert={!visible[index]}
            >
              {card}
            </div>
          ))}
        </div>
      </div>

      <p className="visually-hidden" aria-live="polite" aria-atomic="true">
        {announcement}
      </p>
    </section>
  );
}
