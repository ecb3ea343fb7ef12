import { carouselTiming } from './carousel-timing';

export interface SnapInput {
  /** The settled offset (px) of the card container for each card, in card order (decreasing). */
  cardOffsets: readonly number[];
  /** The container's offset when the drag started. */
  startOffset: number;
  /** Horizontal drag distance (px): negative when dragged to the left, i.e. towards the next card. */
  movement: number;
  /** Signed horizontal pointer velocity at release (px/ms). */
  velocity?: number;
  threshold?: number;
}

/** A flick back against the drag at this speed (px/ms) or faster means "never mind". */
const FLICK_BACK_VELOCITY = 1;

/** The card whose settled offset is nearest to `offset` (0 when there are no cards). */
export function nearestCard(cardOffsets: readonly number[], offset: number): number {
  let nearest = 0;
  cardOffsets.forEach((cardOffset, index) => {
    if (Math.abs(cardOffset - offset) < Math.abs(cardOffsets[nearest]! - offset)) nearest = index;
  });
  return nearest;
}

export function clampCard(index: number, count: number): number {
  return Math.min(Math.max(index, 0), Math.max(count - 1, 0));
}

/**
 * Where a swipe settles (docs/product/states.md#states-and-transitions, docs/product/constants.md#business-constants): one card further in the drag's direction when the drag covered
 * at least the threshold (70 px), otherwise back on the card it started from; never past the first or
 * last card. A drag that started mid-animation counts from the card nearest to where it was grabbed.
 */
export function snapTarget({
  cardOffsets,
  startOffset,
  movement,
  velocity = 0,
  threshold = carouselTiming.swipeThreshold,
}: SnapInput): number {
  const startCard = nearestCard(cardOffsets, startOffset);
  if (Math.abs(movement) < threshold) return startCard;
  const flickedBack =
    Math.sign(velocity) === -Math.sign(movement) && Math.abs(velocity) >= FLICK_BACK_VELOCITY;
  if (flickedBack) return startCard;
  const step = movement < 0 ? 1 : -1;
  return clampCard(startCard + step, cardOffsets.length);
}
