import type { Configuration } from 'oidc-provider';

/**
 * DPoP at the realm (RFC 9449, decision 0044): oidc-provider's own support. A token request with a
 * `DPoP` proof gets an access token bound to the proof's key (`token_type: DPoP`, `cnf.jkt`) and, for
 * a public client such as the web app, a refresh token bound to the same key (a later refresh needs a
 * proof of it). A request without a proof gets bearer tokens as before. Proof ids are kept by the
 * provider's replay detection in the database (every instance sees them); server nonces come from a
 * secret the instances share, and are required when `DPOP_REQUIRE_NONCE` is set.
 */
export interface DpopSettings {
  /** 32 bytes, the same on every instance (app_secrets `dpop-nonce-key`). */
  nonceSecret: Buffer;
  requireNonce: boolean;
}

export function dpopFeature(
  settings: DpopSettings | undefined,
): NonNullable<Configuration['features']>['dPoP'] {
  if (!settings) return { enabled: false };
  return {
    enabled: true,
    nonceSecret: settings.nonceSecret,
    requireNonce: () => settings.requireNonce,
    // A proof is taken once: the provider's ReplayDetection rows in oidc_model_instances.
    allowReplay: false,
  };
}
