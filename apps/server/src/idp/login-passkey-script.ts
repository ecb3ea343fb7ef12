import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { PASSKEY_SCRIPT_PATH } from './realm.js';

/**
 * SimpleWebAuthn's browser bundle (UMD, global `SimpleWebAuthnBrowser`; about 13.5 kB, 3.8 kB gzip),
 * read once from the installed package, so the version is the one package-lock.json names.
 */
function simpleWebAuthnBrowser(): string {
  const require = createRequire(import.meta.url);
  const entry = require.resolve('@simplewebauthn/browser');
  const bundle = path.join(path.dirname(entry), '..', 'dist', 'bundle', 'index.umd.min.js');
  return readFileSync(bundle, 'utf8').replace(/\n\/\/# sourceMappingURL=.*$/m, '');
}

/**
 * Passkey sign-in on the sign-in page (docs/product/identity-provider.md#passkey-sign-in), served as
 * its own file and linked from the sign-in page only. Two ways in: the browser's autofill offers the
 * passkeys of this site in the e-mail field (conditional mediation, `autocomplete="username webauthn"`),
 * and the "Sign in with a passkey" button (hidden until this script shows it, so a browser without
 * WebAuthn never sees it). Either way the assertion goes into the hidden form, posted like the
 * password form; the server finishes the sign-in or answers the page with the failure message.
 */
const passkeySignIn = `
(function () {
  var lib = window.SimpleWebAuthnBrowser;
  var form = document.getElementById('passkey-form');
  var button = document.querySelector('button[data-passkey]');
  var message = document.getElementById('passkey-error');
  if (!lib || !form || !lib.browserSupportsWebAuthn()) return;
  var optionsUrl = form.getAttribute('data-options');
  function options() {
    return fetch(optionsUrl, { method: 'POST', credentials: 'same-origin', headers: { accept: 'application/json' } })
      .then(function (response) {
        if (!response.ok) throw new Error('options ' + response.status);
        return response.json();
      });
  }
  function finish(credential) {
    form.elements.credential.value = JSON.stringify(credential);
    form.submit();
  }
  function showFailure() {
    if (!message) return;
    message.textContent = message.getAttribute('data-text');
    message.hidden = false;
  }
  function autofill() {
    return lib.browserSupportsWebAuthnAutofill().then(function (supported) {
      if (!supported) return;
      return options()
        .then(function (optionsJSON) {
          return lib.startAuthentication({ optionsJSON: optionsJSON, useBrowserAutofill: true });
        })
        .then(finish);
    }).catch(function () { /* cancelled or replaced by the button: nothing to say */ });
  }
  if (button) {
    button.hidden = false;
    button.addEventListener('click', function () {
      if (message) message.hidden = true;
      button.disabled = true;
      options()
        .then(function (optionsJSON) { return lib.startAuthentication({ optionsJSON: optionsJSON }); })
        .then(finish)
        .catch(function () {
          button.disabled = false;
          showFailure();
          autofill();
        });
    });
  }
  autofill();
})();
`;

export const loginPasskeyScript = `${simpleWebAuthnBrowser()}\n${passkeySignIn.trimStart()}`;
export const loginPasskeyScriptVersion = createHash('sha256')
  .update(loginPasskeyScript)
  .digest('hex')
  .slice(0, 12);
export const loginPasskeyScriptUrl = `${PASSKEY_SCRIPT_PATH}?v=${loginPasskeyScriptVersion}`;
