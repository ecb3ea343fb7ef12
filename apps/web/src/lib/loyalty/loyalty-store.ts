import { create } from 'zustand';
import type { LoyaltyRouteName } from '@/config/routes';

/**
 * App state of the loyalty app (no server data: TanStack Query keeps that, see api/query-keys.ts): the
 * loyalty route shown now and the one before it (the signup sends visitors from the status back).
 */
export interface LoyaltyState {
  route: { current: LoyaltyRouteName | null; previous: LoyaltyRouteName | null };
}

export interface LoyaltyActions {
  /** Called by the loyalty router after each navigation. */
  recordRoute(name: LoyaltyRouteName | null): void;
  reset(): void;
}

export type LoyaltyStore = LoyaltyState & LoyaltyActions;

export function initialLoyaltyState(): LoyaltyState {
  return { route: { current: null, previous: null } };
}

export const useLoyaltyStore = create<LoyaltyStore>()((set) => ({
  ...initialLoyaltyState(),

  recordRoute: (name) =>
    set((state) =>
      state.route.current === name ? state : { route: { current: name, previous: state.route.current } },
    ),

  reset: () => set(initialLoyaltyState()),
}));

/** For tests: back to the initial state. */
export function resetLoyaltyStore(): void {
  useLoyaltyStore.getState().reset();
}
