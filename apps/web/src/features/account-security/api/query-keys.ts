/** The security pages' query keys, written once. */
export const securityKeys = {
  all: ['account', 'security'] as const,
  sessions: () => [...securityKeys.all, 'sessions'] as const,
  activity: () => [...securityKeys.all, 'activity'] as const,
};
