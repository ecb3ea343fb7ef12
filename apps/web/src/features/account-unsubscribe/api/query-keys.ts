/** The unsubscribe page's query keys, written once. */
export const unsubscribeKeys = {
  all: ['account', 'unsubscribe'] as const,
  lookup: (token: string) => [...unsubscribeKeys.all, 'lookup', token] as const,
};
