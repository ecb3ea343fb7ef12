import { afterEach, describe, expect, it } from 'vitest';
import { resetLoyaltyStore, useLoyaltyStore } from './loyalty-store';

// The loyalty store keeps app state only; the server data's rules are in api/loyalty-queries.test.ts.
describe('loyalty store', () => {
  afterEach(() => resetLoyaltyStore());

  it('remembers the route shown now and the one before it, once per change', () => {
    const store = () => useLoyaltyStore.getState();
    store().recordRoute('loyalty-status');
    store().recordRoute('loyalty-signup');
    store().recordRoute('loyalty-signup');
    expect(store().route).toEqual({ current: 'loyalty-signup', previous: 'loyalty-status' });
  });
});
