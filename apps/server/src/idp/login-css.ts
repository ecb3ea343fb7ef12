import { createHash } from 'node:crypto';

/**
 * The one stylesheet of the identity provider's pages, served as a file under the realm
 * (the CSP allows no inline styles). System fonts only: no web fonts, nothing from elsewhere.
 * Colours meet WCAG AA contrast; controls are at least 48 px high; focus is always visible.
 */
export const loginCss = `
:root {
  --brand: #0b5cad;
  --brand-dark: #08498a;
  --accent: #f5b700;
  --text: #16191d;
  --muted: #525a66;
  --bg: #f3f5f8;
  --border: #7d8a85;
  --error: #b3261e;
  --error-bg: #fdecea;
  --focus: #1a56db;
}
*, *::before, *::after { box-sizing: border-box; }
html { -webkit-text-size-adjust: 100%; text-size-adjust: 100%; }
body {
  margin: 0;
  min-height: 100vh;
  display: flex;
  flex-direction: column;
  font-family: system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif;
  font-size: 1rem;
  line-height: 1.5;
  color: var(--text);
  background: var(--bg);
}
.brand-bar {
  position: relative;
  padding: 1.5rem 1.25rem 4.75rem;
  color: #fff;
  background: linear-gradient(135deg, #0b5cad 0%, #1470c8 100%);
}
.brand-bar::after {
  content: '';
  position: absolute;
  left: 0;
  right: 0;
  bottom: 1.75rem;
  height: 0.25rem;
  background: repeating-linear-gradient(90deg, var(--accent) 0 1.75rem, transparent 1.75rem 3rem);
  opacity: 0.85;
}
.brand { display: flex; align-items: center; gap: 0.75rem; max-width: 26rem; margin: 0 auto; }
.brand-icon {
  display: flex;
  align-items: center;
  justify-content: center;
  flex: none;
  width: 2.75rem;
  height: 2.75rem;
  border-radius: 0.75rem;
  background: rgba(255, 255, 255, 0.16);
}
.brand-icon svg { width: 1.75rem; height: 1.75rem; fill: currentColor; }
.brand-name { margin: 0; font-size: 1.5rem; font-weight: 700; line-height: 1.2; letter-spacing: 0.01em; }
.tagline { margin: 0; font-size: 0.9375rem; }
main { flex: 1; padding: 0 1rem 2rem; }
.card {
  position: relative;
  max-width: 26rem;
  margin: -3rem auto 0;
  padding: 1.75rem 1.25rem;
  background: #fff;
  border-radius: 1rem;
  box-shadow: 0 12px 32px rgba(10, 40, 30, 0.14);
}
@media (min-width: 30rem) {
  main { padding-top: 0.5rem; }
  .card { padding: 2.25rem 2rem; }
}
h1 { margin: 0 0 0.25rem; font-size: 1.625rem; line-height: 1.25; }
.intro { margin: 0 0 1.5rem; color: var(--muted); }
.secondary-link { margin: 1.25rem 0 0; text-align: center; }
.secondary-link a { display: inline-flex; align-items: center; min-height: 2.75rem; }
.field-error p { margin: 0; }
.field { margin-bottom: 1.25rem; }
label { display: block; margin-bottom: 0.375rem; font-weight: 600; }
input[type='email'], input[type='password'], .field-control input {
  display: block;
  width: 100%;
  min-height: 3rem;
  padding: 0.625rem 0.875rem;
  font: inherit;
  color: inherit;
  background: #fff;
  border: 1px solid var(--border);
  border-radius: 0.5rem;
}
input[aria-invalid='true'] { border: 2px solid var(--error); }
.field-control { position: relative; }
.field-control input { padding-right: 3.5rem; }
.reveal {
  position: absolute;
  top: 50%;
  right: 0.125rem;
  display: inline-flex;
  align-items: center;
  justify-content: center;
  width: 3rem;
  height: 3rem;
  padding: 0;
  color: var(--text);
  background: transparent;
  border: 0;
  border-radius: 0.5rem;
  cursor: pointer;
  transform: translateY(-50%);
}
.reveal[hidden] { display: none; }
.reveal svg { width: 1.5rem; height: 1.5rem; fill: none; stroke: currentColor; stroke-width: 2; stroke-linecap: round; stroke-linejoin: round; }
.reveal .reveal-hide, .reveal.is-shown .reveal-show { display: none; }
.reveal.is-shown .reveal-hide { display: inline; }
.reveal:focus-visible { outline-offset: -3px; }
.field-error { margin: 0.375rem 0 0; color: var(--error); font-size: 0.9375rem; }
.alert {
  margin: 0 0 1.25rem;
  padding: 0.75rem 1rem;
  color: #8c1d18;
  background: var(--error-bg);
  border: 1px solid #f0b4b0;
  border-left: 0.375rem solid var(--error);
  border-radius: 0.5rem;
}
.actions { display: grid; gap: 0.75rem; margin-top: 1.75rem; }
.button {
  display: flex;
  align-items: center;
  justify-content: center;
  width: 100%;
  min-height: 3rem;
  padding: 0.75rem 1.25rem;
  font: inherit;
  font-weight: 600;
  color: #fff;
  text-align: center;
  text-decoration: none;
  background: var(--brand);
  border: 2px solid var(--brand);
  border-radius: 0.5rem;
  cursor: pointer;
}
.button:hover { background: var(--brand-dark); border-color: var(--brand-dark); }
.button-secondary { color: var(--brand-dark); background: #fff; }
.button-secondary:hover { color: #fff; }
a { color: var(--brand-dark); }
.passkey { margin-top: 0.75rem; }
.passkey .alert { margin: 0 0 0.75rem; }
.passkey [hidden] { display: none; }
.button:disabled { cursor: progress; opacity: 0.75; }
:focus-visible { outline: 3px solid var(--focus); outline-offset: 2px; }
input:focus-visible { border-color: var(--focus); }
footer { padding: 1rem; color: var(--muted); font-size: 0.875rem; text-align: center; }
.languages { max-width: 26rem; margin: 0 auto; padding: 0 1rem 1.5rem; }
.languages ul { display: flex; flex-wrap: wrap; justify-content: center; gap: 0.25rem 0.5rem; margin: 0; padding: 0; list-style: none; }
.languages a { display: inline-flex; align-items: center; min-height: 2.75rem; padding: 0 0.5rem; font-size: 0.9375rem; }
.languages a[aria-current] { font-weight: 700; color: var(--text); text-decoration: none; }
@media (forced-colors: active) {
  .button { border: 2px solid ButtonText; }
  .brand-bar::after { display: none; }
}
`.trimStart();

/** A short content hash, used as a cache-busting version in the stylesheet URL. */
export const loginCssVersion = createHash('sha256').update(loginCss).digest('hex').slice(0, 12);
