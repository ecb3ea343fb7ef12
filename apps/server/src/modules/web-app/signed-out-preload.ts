import { createHash } from 'node:crypto';
import { ACCESS_TOKEN_STORAGE_KEY, WEBVIEW_QUERY_PARAMETER, WEBVIEW_USER_AGENT } from '@roadpass/contracts';

/**
 * The one inline script of the app's HTML (decision 0072). A tab without an access token in sessionStorage,
 * outside the native apps, is about to be sent to the realm: the entry imports the sign-in client
 * (oidc-client-ts) first thing, a round trip after the entry itself. This asks for that chunk (the
 * files in the tag's `data-preload`) beside the entry instead. A tab with a token never needs it
 * before its page shows, and a webview never signs in here: neither preloads it. It runs before the
 * stylesheet's link, so that it does not wait for the stylesheet, and does nothing should storage be
 * unavailable.
 */
export const SIGNED_OUT_PRELOAD_SCRIPT =
  '(function(){try{' +
  'var s=document.currentScript,q=new URLSearchParams(location.search);' +
  `if(sessionStorage.getItem(${JSON.stringify(ACCESS_TOKEN_STORAGE_KEY)})` +
  `||q.get(${JSON.stringify(WEBVIEW_QUERY_PARAMETER)})==="true"` +
  `||/${WEBVIEW_USER_AGENT.source}/${WEBVIEW_USER_AGENT.flags}.test(navigator.userAgent))return;` +
  's.getAttribute("data-preload").split(" ").forEach(function(h){' +
  'var l=document.createElement("link");l.rel="modulepreload";l.crossOrigin="";l.href=h;' +
  'document.head.appendChild(l)})' +
  '}catch(e){}})()';

/** The script's CSP source: the documents' `script-src` allows it, and no other inline script. */
export const SIGNED_OUT_PRELOAD_SCRIPT_HASH = `'sha256-${createHash('sha256').update(SIGNED_OUT_PRELOAD_SCRIPT).digest('base64')}'`;

/** The script tag for these files (root-relative asset paths, checked by the caller). */
export function signedOutPreloadTag(files: readonly string[]): string {
  return `<script data-preload="${files.join(' ')}">${SIGNED_OUT_PRELOAD_SCRIPT}</script>`;
}
