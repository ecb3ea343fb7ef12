import { readFile } from 'node:fs/promises';
import type { FastifyPluginAsync } from 'fastify';
import { appPaths } from '@roadpass/contracts';
import type { AppConfig } from '../../config.js';
import { issuerOf } from '../../idp/realm.js';

/** apps/server/dev-assets/webview-host, the same from src/ (tests) and dist/ (the built server). */
const assetsDir = new URL('../../../dev-assets/webview-host/', import.meta.url);

const escapeAttribute = (value: string) =>
  value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/**
 * Outside production only (never registered there): the webview host page, which plays the iOS or
 * Android app around the app in webview mode (docs/native-bridge.md). Its script and stylesheet are
 * files of their own, so the strict CSP (no inline scripts or styles) holds for it too; the app runs
 * in a same-origin iframe, which frame-ancestors 'self' allows.
 */
export const webviewHostRoutes: FastifyPluginAsync<{ config: AppConfig }> = async (app, { config }) => {
  const [script, stylesheet] = await Promise.all([
    readFile(new URL('host.js', assetsDir), 'utf8'),
    readFile(new URL('host.css', assetsDir), 'utf8'),
  ]);
  const base = appPaths.devWebviewHost;
  const settings = {
    authority: issuerOf(config.publicUrl),
    'client-id': config.oidcClientId,
    'app-path': `${appPaths.loyaltyBase}/status`,
    'payment-path': appPaths.paymentProfilesRedirect,
  };
  const page = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Roadpass webview host (development)</title>
<link rel="stylesheet" href="${base}/host.css">
<script type="module" src="${base}/host.js"></script>
</head>
<body ${Object.entries(settings)
    .map(([name, value]) => `data-${name}="${escapeAttribute(value)}"`)
    .join(' ')}>
<main class="host">
<section class="host__controls" aria-labelledby="host-title">
<h1 id="host-title">Webview host</h1>
<p id="host-account">Not signed in.</p>
<p><button type="button" id="sign-in">Sign in as the app</button> <button type="button" id="sign-out">Forget tokens</button></p>
<fieldset><legend>Platform</legend>
<label><input type="radio" name="platform" value="ios" checked> iOS (webkit.messageHandlers)</label>
<label><input type="radio" name="platform" value="android"> Android (RoadpassAndroid)</label>
</fieldset>
<fieldset><legend>Consent the app passes (docs/native-bridge.md)</legend>
<label><input type="radio" name="consent" value="" checked> Ask: no consent parameter (the web app shows its banner)</label>
<label><input type="radio" name="consent" value="none"> Deny all (consent=none)</label>
<label><input type="radio" name="consent" value="analytics,error-reporting"> Accept all (consent=analytics,error-reporting)</label>
<label><input type="radio" name="consent" value="analytics"> Analytics only (consent=analytics)</label>
<label><input type="radio" name="consent" value="error-reporting"> Error reporting only (consent=error-reporting)</label>
<label><input type="checkbox" id="tracking-opt-out"> Tracking opt-out (tracking_opt_out=true)</label>
</fieldset>
<fieldset><legend>Open the app</legend>
<label for="app-path">Path</label> <input id="app-path" size="32">
<label><input type="checkbox" id="invalid-first"> Start with an invalid token (the first call answers 401)</label>
<button type="button" id="open">Open</button>
</fieldset>
<fieldset><legend>Token refresh requests</legend>
<label><input type="radio" name="refresh" value="answer" checked> Answer with a new token</label>
<label><input type="radio" name="refresh" value="refuse"> Refuse</label>
<label><input type="radio" name="refresh" value="silent"> Do not answer</label>
<label for="refresh-delay">Delay (ms)</label> <input id="refresh-delay" type="number" min="0" value="0">
</fieldset>
<fieldset><legend>Safe-area insets (px)</legend>
<label>Top <input id="inset-top" type="number" min="0" value="47"></label>
<label>Right <input id="inset-right" type="number" min="0" value="0"></label>
<label>Bottom <input id="inset-bottom" type="number" min="0" value="34"></label>
<label>Left <input id="inset-left" type="number" min="0" value="0"></label>
<button type="button" id="send-insets">Send insets</button>
</fieldset>
<fieldset><legend>Push notification flags</legend>
<label><input type="checkbox" id="push-enabled" checked> Allowed on the device</label>
<label><input type="checkbox" id="push-loyalty"> Loyalty notifications on</label>
<label><input type="checkbox" id="push-grant" checked> Turn loyalty on when the app asks</label>
<button type="button" id="send-push">Send flags</button>
</fieldset>
<fieldset><legend>Navigation</legend>
<button type="button" id="back">Back</button> <button type="button" id="forward">Forward</button>
<label><input type="checkbox" id="payment-intercept" checked> Catch the payment address (open the native payment screen)</label>
</fieldset>
<section id="payment-screen" class="host__payment" aria-labelledby="payment-screen-title" hidden>
<h2 id="payment-screen-title">Native payment screen</h2>
<p>The host caught <code id="payment-screen-address"></code> and shows its own payment screen; the app stays where it was.</p>
<button type="button" id="payment-screen-close">Close the payment screen</button>
</section>
<p>Clipboard: <output id="clipboard"></output></p>
<h2>Messages</h2>
<button type="button" id="clear-log">Clear</button>
<ol id="log" aria-live="polite"></ol>
</section>
<iframe id="app-frame" title="The app in webview mode" class="host__phone"></iframe>
</main>
</body>
</html>
`;
  const hidden = { config: { public: true }, schema: { hide: true } };
  app.get(base, hidden, async (_request, reply) =>
    reply.type('text/html; charset=utf-8').header('cache-control', 'no-store').send(page),
  );
  app.get(`${base}/host.js`, hidden, async (_request, reply) =>
    reply.type('text/javascript; charset=utf-8').header('cache-control', 'no-store').send(script),
  );
  app.get(`${base}/host.css`, hidden, async (_request, reply) =>
    reply.type('text/css; charset=utf-8').header('cache-control', 'no-store').send(stylesheet),
  );
};
