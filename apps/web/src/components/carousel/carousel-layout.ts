/** Where the cards sit inside the carousel, measured from the DOM (all in px). */
export interface CarouselLayout {
  /** Left edge and width of each card inside the card container, before any offset. */
  cards: { left: number; width: number }[];
  /** The container offset at which each card is the settled, current card. */
  cardOffsets: number[];
  viewportWidth: number;
}

/**
 * Measures the cards. CSS decides the alignment per width (`--carousel-align: start | center` on the
 * viewport): phones align the current card with the page's start and show a peek of the next one,
 * wide carousels centre it between its neighbours.
 */
export function measureCarousel(viewport: HTMLElement, container: HTMLElement): CarouselLayout {
  const slides = Array.from(container.children) as HTMLElement[];
  const viewportWidth = viewport.clientWidth;
  const centred = getComputedStyle(viewport).getPropertyValue('--carousel-align').trim() === 'center';
  const inset = slides[0]?.offsetLeft ?? 0;
  const cards = slides.map((slide) => ({ left: slide.offsetLeft, width: slide.offsetWidth }));
  const cardOffsets = cards.map(({ left, width }) =>
    centred ? (viewportWidth - width) / 2 - left : inset - left,
  );
  return { cards, cardOffsets, viewportWidth };
}

/**
 * Cards fully inside the viewport when `current` is settled. The others are made inert so that
 * neither the keyboard nor a screen reader lands on a card nobody can see. Without a layout (not
 * measured yet, or no layout engine) only the current card counts as visible.
 */
export function visibleCards(layout: CarouselLayout | null, current: number, count: number): boolean[] {
  const offset = layout?.cardOffsets[current];
  return Array.from({ length: count }, (_, index) => {
    if (index === current) return true;
    const card = layout?.cards[index];
    if (!layout || offset === undefined || !card || card.width === 0) return false;
    const left = card.left + offset;
    return left >= -1 && left + card.width <= layout.viewportWidth + 1;
  });
}
