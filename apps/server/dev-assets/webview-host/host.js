// The webview host page (development and test only): plays the Roadpass iOS or Android app around
// the web app in webview mode. Protocol: docs/native-bridge.md. Plain browser JavaScript, no build.

const settings = document.body.dataset;
const authority = settings.authority;
const clientId = settings.clientId;
const redirectUri = `${location.origin}${location.pathname}`;
const tokenEndpoint = `${authority}/protocol/openid-connect/token`;
const storageKey = 'webview-host.tokens';
const pkceKey = 'webview-host.pkce';
/** The app's own stored token (apps/web storage keys): removed so that every opening starts fresh. */
const appTokenKey = 'roadpass.token';
const BRIDGE_VERSION = 1;
const messageNames = [
  'refreshAuthToken',
  'copyToClipboard',
  'clearHistory',
  'checkHistory',
  'didNavigateForward',
  'didNavigateBackward',
  'enableLoyaltyPushNotifications',
  'pointsExpiryHint',
];

const $ = (id) => document.getElementById(id);
const frame = $('app-frame');
const logList = $('log');

function log(direction, name, payload) {
  const item = document.createElement('li');
  item.dataset.direction = direction;
  item.dataset.name = name;
  item.textContent = `${direction === 'in' ? '←' : '→'} ${name} ${payload === undefined ? '' : JSON.stringify(payload)}`;
  logList.append(item);
}

function readTokens() {
  try {
    return JSON.parse(sessionStorage.getItem(storageKey) ?? 'null');
  } catch {
    return null;
  }
}

function showAccount() {
  const tokens = readTokens();
  $('host-account').textContent = tokens
    ? `Signed in; the access token expires at ${new Date(tokens.expiresAt).toLocaleTimeString()}.`
    : 'Not signed in.';
}

const base64url = (bytes) =>
  btoa(String.fromCharCode(...new Uint8Array(bytes)))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');

/** Authorization code flow with PKCE, as the native apps do it (in a system browser there). */
async function signIn() {
  const verifier = base64url(crypto.getRandomValues(new Uint8Array(32)));
  const state = base64url(crypto.getRandomValues(new Uint8Array(16)));
  const challenge = base64url(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier)));
  sessionStorage.setItem(pkceKey, JSON.stringify({ verifier, state }));
  const url = new URL(`${authority}/protocol/openid-connect/auth`);
  url.search = new URLSearchParams({
    client_id: clientId,
    redirect_uri: redirectUri,
    response_type: 'code',
    scope: 'openid profile email',
    code_challenge: challenge,
    code_challenge_method: 'S256',
    state,
  }).toString();
  location.assign(url.href);
}

async function tokenRequest(form) {
  const response = await fetch(tokenEndpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ client_id: clientId, ...form }),
  });
  const body = await response.json();
  if (!response.ok) throw new Error(`token endpoint answered ${response.status}: ${body.error ?? ''}`);
  const tokens = {
    accessToken: body.access_token,
    refreshToken: body.refresh_token,
    expiresAt: Date.now() + body.expires_in * 1000,
  };
  sessionStorage.setItem(storageKey, JSON.stringify(tokens));
  showAccount();
  return tokens;
}

async function completeSignIn() {
  const params = new URLSearchParams(location.search);
  const code = params.get('code');
  if (!code) return;
  const pkce = JSON.parse(sessionStorage.getItem(pkceKey) ?? 'null');
  sessionStorage.removeItem(pkceKey);
  history.replaceState(null, '', location.pathname);
  if (!pkce || pkce.state !== params.get('state')) {
    log('host', 'sign-in failed', 'state mismatch');
    return;
  }
  try {
    await tokenRequest({
      grant_type: 'authorization_code',
      code,
      redirect_uri: redirectUri,
      code_verifier: pkce.verifier,
    });
    log('host', 'signed in');
  } catch (error) {
    log('host', 'sign-in failed', String(error));
  }
}

/** A fresh access token through the refresh_token grant (the native app's own session). */
async function renewedAccessToken() {
  const tokens = readTokens();
  if (!tokens) throw new Error('not signed in');
  return (await tokenRequest({ grant_type: 'refresh_token', refresh_token: tokens.refreshToken }))
    .accessToken;
}

const platform = () => document.querySelector('input[name="platform"]:checked').value;
const refreshMode = () => document.querySelector('input[name="refresh"]:checked').value;
const appWindow = () => frame.contentWindow;

/** Calls one of the app's setters once it exists (the app installs them at start). */
function callApp(setter, message) {
  log('out', setter, message);
  const attempt = (triesLeft) => {
    const win = appWindow();
    const fn = win && !win.roadpassStale ? win[setter] : undefined;
    if (typeof fn === 'function') fn(platform() === 'android' ? JSON.stringify(message) : message);
    else if (triesLeft > 0) setTimeout(() => attempt(triesLeft - 1), 50);
    else log('host', 'the app has no setter', setter);
  };
  attempt(600);
}

function onMessage(name, payload) {
  log('in', name, payload);
  if (name === 'copyToClipboard') $('clipboard').textContent = payload.text;
  if (name === 'refreshAuthToken') {
    const mode = refreshMode();
    if (mode === 'silent') return;
    setTimeout(
      async () => {
        if (mode === 'refuse') {
          callApp('answerAuthTokenRefresh', {
            v: BRIDGE_VERSION,
            type: 'authTokenRefused',
            requestId: payload.requestId,
          });
          return;
        }
        try {
          const token = await renewedAccessToken();
          callApp('answerAuthTokenRefresh', {
            v: BRIDGE_VERSION,
            type: 'authToken',
            requestId: payload.requestId,
            token,
          });
        } catch (error) {
          log('host', 'renewal failed', String(error));
          callApp('answerAuthTokenRefresh', {
            v: BRIDGE_VERSION,
            type: 'authTokenRefused',
            requestId: payload.requestId,
          });
        }
      },
      Number($('refresh-delay').value) || 0,
    );
  }
  if (name === 'enableLoyaltyPushNotifications' && $('push-grant').checked) {
    $('push-enabled').checked = true;
    $('push-loyalty').checked = true;
    sendPushFlags();
  }
}

/** Puts the platform's bridge objects into the app's window (same origin), as the native apps inject them. */
function inject(win) {
  if (platform() === 'ios') {
    win.webkit = {
      messageHandlers: Object.fromEntries(
        messageNames.map((name) => [name, { postMessage: (payload) => onMessage(name, payload) }]),
      ),
    };
  } else {
    win.RoadpassAndroid = Object.fromEntries(
      messageNames.map((name) => [name, (json) => onMessage(name, JSON.parse(json))]),
    );
  }
  // The native apps catch the address of the payment redirect (docs/product/addresses-and-routes.md#screens-and-routes) before it loads
  // (decidePolicyFor / shouldOverrideUrlLoading) and show their payment screen: the Navigation API
  // lets this page do the same to the frame.
  win.navigation?.addEventListener('navigate', (event) => {
    const target = new URL(event.destination.url);
    if (!$('payment-intercept').checked || !event.cancelable) return;
    if (target.origin !== location.origin || !target.pathname.startsWith(settings.paymentPath)) return;
    event.preventDefault();
    log('host', 'payment screen', target.pathname + target.search);
    $('payment-screen-address').textContent = target.pathname + target.search;
    $('payment-screen').hidden = false;
  });
  win.roadpassHostInjected = true;
}

/** Injects into every document the frame loads (the first one, and any reload inside the app). */
function watchFrame() {
  const win = appWindow();
  try {
    if (win && !win.roadpassHostInjected && win.location.href !== 'about:blank') inject(win);
  } catch {
    // Not same-origin (cannot happen with the app's own paths).
  }
}
setInterval(watchFrame, 2);

function openApp() {
  sessionStorage.removeItem(appTokenKey);
  try {
    // The window of an earlier opening must not take the new opening's messages.
    if (appWindow()?.location.href !== 'about:blank') appWindow().roadpassStale = true;
  } catch {
    // Nothing loaded yet.
  }
  const url = new URL($('app-path').value || settings.appPath, location.origin);
  url.searchParams.set('is_webview', 'true');
  // The customer's choice from the app's own consent screen, as a native app passes it (empty: ask).
  const consent = document.querySelector('input[name="consent"]:checked').value;
  if (consent) url.searchParams.set('consent', consent);
  if ($('tracking-opt-out').checked) url.searchParams.set('tracking_opt_out', 'true');
  log('host', 'open', url.pathname + url.search);
  frame.src = url.pathname + url.search;
  const tokens = readTokens();
  if (!tokens) {
    log('host', 'not signed in: the app will ask for a token');
    return;
  }
  const token = $('invalid-first').checked ? 'invalid.token.value' : tokens.accessToken;
  // The app in the frame installs setAuthToken at start: callApp waits for it (in the new window).
  callApp('setAuthToken', { v: BRIDGE_VERSION, type: 'authToken', token });
}

function sendInsets() {
  const inset = (side) => Number($(`inset-${side}`).value) || 0;
  callApp('setSafeAreaInsets', {
    v: BRIDGE_VERSION,
    type: 'safeAreaInsets',
    top: inset('top'),
    right: inset('right'),
    bottom: inset('bottom'),
    left: inset('left'),
  });
}

function sendPushFlags() {
  callApp('setPushNotificationFlags', {
    v: BRIDGE_VERSION,
    type: 'pushNotificationFlags',
    enabled: $('push-enabled').checked,
    loyalty: $('push-loyalty').checked,
  });
}

$('app-path').value = settings.appPath;
$('sign-in').addEventListener('click', () => void signIn());
$('sign-out').addEventListener('click', () => {
  sessionStorage.removeItem(storageKey);
  showAccount();
});
$('open').addEventListener('click', openApp);
$('send-insets').addEventListener('click', sendInsets);
$('send-push').addEventListener('click', sendPushFlags);
$('back').addEventListener('click', () => {
  log('host', 'back');
  appWindow().history.back();
});
$('forward').addEventListener('click', () => {
  log('host', 'forward');
  appWindow().history.forward();
});
$('clear-log').addEventListener('click', () => logList.replaceChildren());
$('payment-screen-close').addEventListener('click', () => {
  $('payment-screen').hidden = true;
});

showAccount();
void completeSignIn().then(() => {
  document.body.dataset.ready = 'true';
});
