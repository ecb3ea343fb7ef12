/** The mobile page's query keys, written once. */
export const mobileKeys = {
  all: ['account', 'mobile'] as const,
  state: () => [...mobileKeys.all, 'state'] as const,
};
