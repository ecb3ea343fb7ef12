/** The passkeys page's query keys, written once. */
export const passkeyKeys = {
  all: ['account', 'passkeys'] as const,
  list: () => [...passkeyKeys.all, 'list'] as const,
};
