/** The password page's query keys, written once. */
export const passwordKeys = {
  all: ['account', 'password'] as const,
  policy: () => [...passwordKeys.all, 'policy'] as const,
};
