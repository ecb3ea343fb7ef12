/** docs/product/addresses-and-routes.md#screens-and-routes, docs/product/constants.md#business-constants: when the entry route cannot decide, it tries 3 more times, 2000 ms apart, then warns. */
export const ENTRY_RETRIES = 3;
export const ENTRY_RETRY_DELAY_MS = 2000;
