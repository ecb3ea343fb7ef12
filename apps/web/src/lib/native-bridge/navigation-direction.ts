export type NavigationDirection = 'forward' | 'backward';

/** The part of window.history the tracker needs (tests pass their own). */
export interface HistoryLike {
  readonly state: unknown;
  replaceState(data: unknown, unused: string): void;
}

/** Key under which each history entry keeps its position; the app's own state stays next to it. */
const POSITION_KEY = 'roadpassHistoryPosition';

function positionOf(state: unknown): number | null {
  if (typeof state !== 'object' || state === null) return null;
  const position = (state as Record<string, unknown>)[POSITION_KEY];
  return typeof position === 'number' ? position : null;
}

export interface NavigationDirectionTracker {
  /**
   * Call after each change of address. Returns the direction of the move, or null for the first page
   * and for a second look at the same entry.
   */
  next(): NavigationDirection | null;
}

/**
 * Tells forward from backward navigation. Each history entry is stamped with a position one past the
 * entry it was reached from; going to an entry with a lower position (back button, history.back) is
 * backward, everything else forward. Positions live in history.state, so they survive a reload.
 */
export function createNavigationDirectionTracker(
  history: HistoryLike = window.history,
): NavigationDirectionTracker {
  let current: number | null = null;
  return {
    next() {
      const stored = positionOf(history.state);
      if (stored !== null && stored === current) return null;
      const previous = current;
      if (stored === null) {
        // A new entry (pushed, or replaced by a redirect).
        current = previous === null ? 0 : previous + 1;
        const state = typeof history.state === 'object' && history.state !== null ? history.state : {};
        history.replaceState({ ...state, [POSITION_KEY]: current }, '');
      } else {
        current = stored;
      }
      if (previous === null) return null;
      return current < previous ? 'backward' : 'forward';
    },
  };
}
