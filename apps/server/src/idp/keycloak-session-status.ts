import type { KoaContextWithOIDC } from 'oidc-provider';
import { appPaths } from '@roadpass/contracts';
import { protocolRoutes, REALM_PATH } from './realm.js';

/**
 * Keycloak's session-status check (docs/keycloak-clients.md#session-status): keycloak-js loads
 * `login-status-iframe.html` from the realm and asks it, by postMessage, whether the session it holds
 * tokens for (`sid`) is still the browser's. The iframe compares it with the `KEYCLOAK_SESSION`
 * cookie (`realm/subject/sid`, readable by script, scoped to the realm), set when an authorization
 * ends with a code and cleared at logout. Before it, keycloak-js checks with `3p-cookies/step1.html`
 * whether the browser lets such an iframe keep cookies.
 */

export const SESSION_STATUS_COOKIE = 'KEYCLOAK_SESSION';
export const THIRD_PARTY_COOKIE = 'KEYCLOAK_3P_COOKIE';

const PROTOCOL = `${REALM_PATH}/protocol/openid-connect`;
export const sessionStatusPaths = {
  iframe: `${PROTOCOL}/login-status-iframe.html`,
  iframeInit: `${PROTOCOL}/login-status-iframe.html/init`,
  iframeScript: `${PROTOCOL}/login-status-iframe.js`,
  step1: `${PROTOCOL}/3p-cookies/step1.html`,
  step1Script: `${PROTOCOL}/3p-cookies/step1.js`,
  step2: `${PROTOCOL}/3p-cookies/step2.html`,
  step2Script: `${PROTOCOL}/3p-cookies/step2.js`,
} as const;

/** Paths under the realm's protocol prefix that are ours, not the provider's. */
export const sessionStatusPathList: readonly string[] = Object.values(sessionStatusPaths);

const page = (script: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Session status</title>` +
  `<script src="${script}"></script></head><body></body></html>`;

export const iframePage = page(sessionStatusPaths.iframeScript);
export const step1Page = page(sessionStatusPaths.step1Script);
export const step2Page = page(sessionStatusPaths.step2Script);

/** The iframe's script: Keycloak's protocol (messages "clientId sessionState" → unchanged/changed/error). */
export const iframeScript = `(function () {
  var init;
  function cookie() {
    var prefix = ${JSON.stringify(`${SESSION_STATUS_COOKIE}=`)};
    var parts = document.cookie.split(';');
    for (var i = 0; i < parts.length; i++) {
      var c = parts[i].trim();
      if (c.indexOf(prefix) === 0) return decodeURIComponent(c.substring(prefix.length));
    }
    return '';
  }
  function compare(sessionState) {
    var c = cookie();
    if (!c) return sessionState ? 'changed' : 'unchanged';
    return c.split('/')[2] === sessionState ? 'unchanged' : 'changed';
  }
  function check(clientId, origin, sessionState, callback) {
    if (init) {
      callback(init.clientId === clientId && init.origin === origin ? compare(sessionState) : 'error');
      return;
    }
    var url = location.href.split('?')[0] + '/init?client_id=' + encodeURIComponent(clientId) +
      '&origin=' + encodeURIComponent(origin);
    fetch(url, { credentials: 'same-origin' }).then(function (res) {
      if (res.status !== 204) return callback('error');
      init = { clientId: clientId, origin: origin };
      callback(compare(sessionState));
    }, function () { callback('error'); });
  }
  window.addEventListener('message', function (event) {
    if (typeof event.data !== 'string') return;
    var data = event.data.split(' ');
    if (data.length !== 2) return;
    check(data[0], event.origin, data[1], function (result) {
      event.source.postMessage(result, event.origin);
    });
  }, false);
})();
`;

/** Step 1 sets a test cookie the way a third-party frame would, then goes to step 2 to read it. */
export const step1Script = `(function () {
  var attributes = location.protocol === 'https:' ? '; SameSite=None; Secure' : '; SameSite=Lax';
  document.cookie = ${JSON.stringify(`${THIRD_PARTY_COOKIE}=supported; Max-Age=60; path=${PROTOCOL}/3p-cookies`)} + attributes;
  location.replace(${JSON.stringify(sessionStatusPaths.step2)});
})();
`;

export const step2Script = `(function () {
  var supported = document.cookie.indexOf(${JSON.stringify(`${THIRD_PARTY_COOKIE}=supported`)}) !== -1;
  document.cookie = ${JSON.stringify(`${THIRD_PARTY_COOKIE}=; Max-Age=0; path=${PROTOCOL}/3p-cookies`)};
  window.parent.postMessage(supported ? 'supported' : 'unsupported', '*');
})();
`;

/**
 * A Koa middleware for the provider: sets the session-status cookie when the authorization endpoint
 * (or its resume step) answers with a code for a signed-in session, clears it when a logout ends.
 */
export function sessionStatusCookie(options: { secure: boolean; maxAgeSeconds: number }) {
  const attributes = {
    httpOnly: false,
    sameSite: options.secure ? ('none' as const) : ('lax' as const),
    secure: options.secure,
    signed: false,
    path: REALM_PATH,
    overwrite: true,
  };
  return async function sessionStatusCookieMiddleware(
    ctx: KoaContextWithOIDC,
    next: () => Promise<void>,
  ): Promise<void> {
    await next();
    if (ctx.status !== 302 && ctx.status !== 303) return;
    if (ctx.path.startsWith(protocolRoutes.end_session)) {
      ctx.cookies.set(SESSION_STATUS_COOKIE, null, attributes);
      return;
    }
    if (!ctx.path.startsWith(protocolRoutes.authorization)) return;
    const session = ctx.oidc?.session;
    const client = ctx.oidc?.client;
    const location = ctx.response.get('location');
    if (!session?.accountId || !client || !location.includes('code=')) return;
    const sid = session.sidFor(client.clientId);
    if (!sid) return;
    ctx.cookies.set(SESSION_STATUS_COOKIE, `${appPaths.realm}/${session.accountId}/${sid}`, {
      ...attributes,
      maxAge: options.maxAgeSeconds * 1000,
    });
  };
}
