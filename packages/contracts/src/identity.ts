// Plain values shared by both halves. No TypeBox here: the browser bundle imports this module.
import type { RuntimeConfig } from './runtime-config.js';

export const environments = ['production', 'integration', 'local', 'test'] as const;
export type Environment = (typeof environments)[number];

/** The content collection of the app's translation texts (docs/product/api.md#calls). */
export const CONTENT_COLLECTION_LOYALTY = 'loyalty-program';

/** The OIDC authority (issuer) for a runtime config: {url}/realms/{realm}. */
export function authorityOf(config: RuntimeConfig): string {
  return `${config.identityProvider.url.replace(/\/$/, '')}/realms/${config.identityProvider.realm}`;
}
