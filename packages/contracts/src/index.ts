// Schema modules (TypeBox) hold payloads; plain modules (paths, locales, legal entities, conventions)
// hold values the browser imports. Keep values out of schema modules so the app never bundles TypeBox.
export * from './api-error.js';
export * from './legal-entities.js';
export * from './locales.js';
export * from './customer.js';
export * from './content.js';
export * from './runtime-config.js';
export * from './api-paths.js';
export * from './http-conventions.js';
export * from './identity.js';
export * from './loyalty-constants.js';
export * from './consents.js';
export * from './loyalty.js';
export * from './loyalty-content.js';
export * from './account.js';
export * from './account-rules.js';
export * from './account-validators.js';
export * from './phone-input.js';
export * from './phone-format.js';
export * from './dev-outbox.js';
export * from './error-reports.js';
export * from './security.js';
export * from './security-constants.js';
export * from './data-rights-constants.js';
export * from './data-rights.js';
export * from './passkey-constants.js';
export * from './passkeys.js';
