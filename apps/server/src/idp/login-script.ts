import { createHash } from 'node:crypto';
import { SCRIPT_PATH } from './realm.js';

/**
 * The sign-in page's one script, served as a file under the realm (the CSP allows no inline script):
 * the "Show password" button inside the password field. Without it the page works the same, the button
 * stays hidden. The button's name says what it will do, in the page's language (data-show/data-hide).
 */
export const loginScript = `
document.querySelectorAll('button[data-reveal]').forEach(function (button) {
  var input = document.getElementById(button.getAttribute('aria-controls'));
  if (!input) return;
  button.hidden = false;
  button.addEventListener('click', function () {
    var show = input.type === 'password';
    input.type = show ? 'text' : 'password';
    button.setAttribute('aria-label', button.getAttribute(show ? 'data-hide' : 'data-show'));
    button.classList.toggle('is-shown', show);
  });
});
`.trimStart();

/** A short content hash, used as a cache-busting version in the script URL. */
export const loginScriptVersion = createHash('sha256').update(loginScript).digest('hex').slice(0, 12);
export const loginScriptUrl = `${SCRIPT_PATH}?v=${loginScriptVersion}`;
