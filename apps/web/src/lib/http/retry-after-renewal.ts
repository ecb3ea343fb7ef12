import type { HttpClient } from './http-client';
import { isHttpError } from './http-error';
import type { RequestConfig } from './types';

/**
 * A call that answers 401 gets the token renewed by `renew` and is sent once more with the new one;
 * a second 401 (or a failed renewal) stands. `applies` can leave a 401 alone (e.g. no session to
 * renew). Used by the browser session and the webview, which renew in their own ways.
 *
 * One renewal per refused token, not per call: calls that went out before a renewal settled (with
 * the token it replaces) share its outcome, even when their 401 arrives after it. Two calls refused
 * at start-up asked a host that refuses twice, one after the other (webview.spec.ts, 1 Dec); a call
 * sent after the renewal settled gets one of its own.
 */
export function retryAfterRenewal(
  http: HttpClient,
  renew: () => Promise<unknown>,
  applies: () => boolean = () => true,
): void {
  const retried = new WeakSet<RequestConfig>();
  /** Renewals settled so far; each call is stamped with the count when it goes out. */
  let settled = 0;
  const sentAfter = new WeakMap<RequestConfig, number>();
  let last: { sentAfter: number; outcome: Promise<unknown> } | undefined;

  http.interceptors.request.use((config) => {
    sentAfter.set(config, settled);
    return config;
  });
  http.interceptors.response.use(undefined, (error) => {
    if (!isHttpError(error) || error.status !== 401 || retried.has(error.config) || !applies()) return;
    const generation = sentAfter.get(error.config) ?? settled;
    if (last?.sentAfter !== generation) {
      const outcome = renew();
      const done = () => void (settled += 1);
      outcome.then(done, done);
      last = { sentAfter: generation, outcome };
    }
    const again = { ...error.config };
    retried.add(again);
    return last.outcome.then(
      () =>
        http.request(again).then((data) => ({ status: 200, headers: new Headers(), data, config: again })),
      () => Promise.reject(error),
    );
  });
}
