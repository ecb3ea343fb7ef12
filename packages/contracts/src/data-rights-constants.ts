// Values of docs/product/data-rights.md the browser imports (no TypeBox here).

/** Error codes of the data-rights calls (the app tells them apart by code). */
export const dataRightsErrorCodes = {
  /** 429: one export a day; Retry-After says when the next one may start. */
  exportOncePerDay: 'export_once_per_day',
  /** 404 on the file: no ready export (none yet, still building, or older than 7 days). */
  exportNotReady: 'export_not_ready',
  /** 409: the rental system reports an open rental, an unpaid invoice or a pending fine. */
  deletionBlocked: 'deletion_blocked',
} as const;

/** Days a ready export can be downloaded. */
export const EXPORT_DOWNLOAD_DAYS = 7;
