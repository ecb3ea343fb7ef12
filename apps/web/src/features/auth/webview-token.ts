import { retryAfterRenewal, type HttpClient } from '@/lib/http';
import {
  HOST_TOKEN_TIMEOUT_MS,
  installHostSetters,
  requestHostToken,
  useHostBridge,
} from '@/lib/native-bridge/host-bridge';
import { decodeClaims } from '@/lib/oidc/jwt';
import { readItem, storageKeys, writeItem } from '@/lib/storage/storage';

/** The host is asked for a new token this long before its token's `exp` (docs/product/constants.md#business-constants's 70 s). */
export const HOST_TOKEN_RENEW_BEFORE_SECONDS = 70;
/** However short-lived a token, renewals asked on a schedule are at least this far apart. */
const MIN_SECONDS_BETWEEN_RENEWALS = 10;

const ignore = () => {};

/**
 * Webview mode (docs/product/states.md#states-and-transitions, docs/product/api.md#calls): the host app owns the token. Installs the host's setters, hands every
 * token to the HTTP layer, asks the host for a new one before the token's `exp` and when a call
 * answers 401 (that call is then sent once more with the new token). Resolves once a token is there:
 * this session's stored one or the host's first; without one in time the host is asked, and a host
 * that does not answer leaves the session 'expired' (the shell says so and can ask again).
 *
 * Once the host has refused (or not answered), a call's 401 asks it no more: only the customer does,
 * with the expired state's button. Any call that went out later (a query refetched, a chunk's first
 * call) asked a host that had just said no once more (webview.spec.ts failed in CI on 1 Dec, three
 * times, each time for another late call).
 */
export function installWebViewTokenSetter(http: HttpClient, now: () => number = Date.now): Promise<void> {
  let renewTimer: ReturnType<typeof setTimeout> | undefined;
  retryAfterRenewal(http, requestHostToken, () => !useHostBridge.getState().expired);

  return new Promise((resolve) => {
    const accept = (token: string) => {
      writeItem(sessionStorage, storageKeys.token, token);
      http.setToken(token);
      clearTimeout(renewTimer);
      const exp = decodeClaims(token)?.exp;
      if (exp !== undefined) {
        const seconds = Math.max(
          exp - HOST_TOKEN_RENEW_BEFORE_SECONDS - now() / 1000,
          MIN_SECONDS_BETWEEN_RENEWALS,
        );
        renewTimer = setTimeout(
          () => void requestHostToken().catch(ignore),
          Math.min(seconds * 1000, 2 ** 31 - 1),
        );
      }
      resolve();
    };
    installHostSetters(accept);
    const stored = readItem(sessionStorage, storageKeys.token);
    if (stored) accept(stored);
    // No token from the host in time: ask for one (resolves when it comes, even after "ask again").
    else setTimeout(() => void (http.getToken() ?? requestHostToken().catch(ignore)), HOST_TOKEN_TIMEOUT_MS);
  });
}
