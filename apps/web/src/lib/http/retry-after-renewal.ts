import type { HttpClient } from './http-client';
import { isHttpError } from './http-error';
import type { RequestConfig } from './types';

/**
 * A call that answers 401 gets the token renewed by `renew` and is sent once more with the new one;
 * a second 401 (or a failed renewal) stands. `applies` can leave a 401 alone (e.g. no session to
 * renew), and a call that says `renewOnUnauthorized: false` keeps its 401. Used by the browser session
 * and the webview, which renew in their own ways.
 */
export function retryAfterRenewal(
  http: HttpClient,
  renew: () => Promise<unknown>,
  applies: () => boolean = () => true,
): void {
  const retried = new WeakSet<RequestConfig>();
  http.interceptors.response.use(undefined, (error) => {
    if (!isHttpError(error) || error.status !== 401 || retried.has(error.config) || !applies()) return;
    if (error.config.renewOnUnauthorized === false) return;
    const again = { ...error.config };
    retried.add(again);
    return renew().then(
      () =>
        http.request(again).then((data) => ({ status: 200, headers: new Headers(), data, config: again })),
      () => Promise.reject(error),
    );
  });
}
