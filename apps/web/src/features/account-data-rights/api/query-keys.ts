/** The data-rights queries' keys, written once. */
export const dataRightsKeys = {
  all: ['account', 'data-rights'] as const,
  export: () => [...dataRightsKeys.all, 'export'] as const,
  deletion: () => [...dataRightsKeys.all, 'deletion'] as const,
};
