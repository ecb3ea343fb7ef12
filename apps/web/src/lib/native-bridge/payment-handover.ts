import { appPaths } from '@roadpass/contracts';

/**
 * The query the webview was opened with, read when the app starts: the host's consent choice lives only
 * there (docs/native-bridge.md, "Consent from the host"), and a redirect inside the app drops it.
 */
const startSearch = typeof window === 'undefined' ? '' : window.location.search;

/** Start-address parameters the payment address keeps: webview mode and the host's consent choice. */
const carried = ['consent', 'tracking_opt_out'] as const;

/**
 * The address that hands the customer over to the native payment screen (docs/native-bridge.md,
 * "Payment methods"): the target of the seed's payment redirect (docs/product/addresses-and-routes.md#screens-and-routes), which the host app catches
 * and answers with its own screen. Should a host let it load, the page there is in the customer's
 * language, in webview mode and without a consent banner the host already answered.
 */
export function paymentHandoverAddress(locale: string, search: string = startSearch): string {
  const from = new URLSearchParams(search);
  const query = new URLSearchParams({ is_webview: 'true', locale });
  for (const name of carried) {
    const value = from.get(name);
    if (value !== null) query.set(name, value);
  }
  return `${appPaths.paymentProfilesRedirect}?${query.toString()}`;
}
