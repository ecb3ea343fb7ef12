// Imported by the browser tests as well, so this file imports nothing (the module's face would bring
// the whole server with it).

/** docs/product/account-rules.md#account-rules and the resend limit (decision 0024). */
export const PIN_TTL_SECONDS = 10 * 60;
export const PIN_MAX_ATTEMPTS = 5;
export const PIN_RESEND_GAP_SECONDS = 60;
export const PIN_SENDS_PER_HOUR = 5;
