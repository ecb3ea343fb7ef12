/** The longest name a customer can give a passkey (docs/product/security.md#passkeys). A plain module: the app imports it. */
export const PASSKEY_NAME_MAX_LENGTH = 64;
