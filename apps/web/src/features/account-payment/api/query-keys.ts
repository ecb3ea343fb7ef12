/** The payment page's query keys, written once. */
export const paymentKeys = {
  all: ['account', 'payment'] as const,
  profiles: () => [...paymentKeys.all, 'profiles'] as const,
};
