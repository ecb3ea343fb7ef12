/**
 * How the error banner's Retry recovers. By default it reloads the page; a route whose chunk could not
 * be loaded offers to load it again in place instead (a reload while offline would leave the app for
 * the browser's own offline page, and in a webview for nothing at all).
 */
let retryInPlace: (() => void) | null = null;

export function offerRetryInPlace(retry: (() => void) | null): void {
  retryInPlace = retry;
}

/** What Retry does now: the route's own retry when one is offered, else `reload`. */
export function retryAction(reload: () => void): () => void {
  return retryInPlace ?? reload;
}
