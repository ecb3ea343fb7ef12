import { WEBVIEW_QUERY_PARAMETER, WEBVIEW_USER_AGENT } from '@roadpass/contracts';

/** Start-up facts read from the address and the browser (docs/product/addresses-and-routes.md#screens-and-routes, docs/product/account-rules.md#validation-rules). */
export interface Environment {
  /** tracking_opt_out=true: analytics and error reporting count as not consented. */
  trackingOptOut: boolean;
  /** is_webview=true or a user agent containing 'webview': the app runs inside the native app. */
  isWebView: boolean;
  /** The locale query parameter, if any. */
  requestedLocale: string | null;
}

export function readEnvironment(search: string, userAgent: string): Environment {
  const params = new URLSearchParams(search);
  return {
    trackingOptOut: params.get('tracking_opt_out') === 'true',
    isWebView: params.get(WEBVIEW_QUERY_PARAMETER) === 'true' || WEBVIEW_USER_AGENT.test(userAgent),
    requestedLocale: params.get('locale'),
  };
}
