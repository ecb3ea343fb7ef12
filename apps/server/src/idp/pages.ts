import { languages, type Language } from '@roadpass/contracts';
import { loginPasskeyScriptUrl } from './login-passkey-script.js';
import { loginScriptUrl } from './login-script.js';
import type { Texts } from './login-texts.js';

/** Escapes text for HTML element content and double-quoted attribute values. */
export function escapeHtml(value: string): string {
  return value
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

export interface PageContext {
  lang: Language;
  texts: Texts;
  /** URL of the stylesheet (served under the realm). */
  stylesheetUrl: string;
  /** The same page in another language (the page's own language choice), when it has one. */
  languageHref?: (lang: Language) => string;
}

/** A language's name in that language, e.g. "Deutsch", "Magyar". */
function nativeName(lang: Language): string {
  const name = new Intl.DisplayNames([lang], { type: 'language' }).of(lang) ?? lang;
  return name.charAt(0).toLocaleUpperCase(lang) + name.slice(1);
}

/** The page's own language choice: a link per language, the current one marked. */
function languageChoice(page: PageContext): string {
  if (!page.languageHref) return '';
  const links = languages
    .map((lang) =>
      lang === page.lang
        ? `<li><a href="${escapeHtml(page.languageHref!(lang))}" lang="${lang}" hreflang="${lang}" aria-current="true">${escapeHtml(nativeName(lang))}</a></li>`
        : `<li><a href="${escapeHtml(page.languageHref!(lang))}" lang="${lang}" hreflang="${lang}">${escapeHtml(nativeName(lang))}</a></li>`,
    )
    .join('');
  return `<nav class="languages" aria-label="${escapeHtml(page.texts.languageLabel)}"><ul>${links}</ul></nav>`;
}

const carIcon =
  '<svg viewBox="0 0 24 24" aria-hidden="true" focusable="false">' +
  '<path d="M5.3 10.2 6.8 6.3A2 2 0 0 1 8.7 5h6.6a2 2 0 0 1 1.9 1.3l1.5 3.9A2 2 0 0 1 20 12.1V17a1 1 0 0 1-1 1h-.6a2.4 2.4 0 0 1-4.8 0h-3.2a2.4 2.4 0 0 1-4.8 0H5a1 1 0 0 1-1-1v-4.9a2 2 0 0 1 1.3-1.9Zm2.2-.2h9l-1.1-3a.8.8 0 0 0-.7-.5H9.3a.8.8 0 0 0-.7.5ZM7 13.2a1.2 1.2 0 1 0 0 2.4 1.2 1.2 0 0 0 0-2.4Zm10 0a1.2 1.2 0 1 0 0 2.4 1.2 1.2 0 0 0 0-2.4Z"/>' +
  '</svg>';

const eyeIcon =
  '<svg class="reveal-show" viewBox="0 0 24 24" aria-hidden="true" focusable="false"><path d="M2 12s3.6-7 10-7 10 7 10 7-3.6 7-10 7S2 12 2 12Z M12 15a3 3 0 1 0 0-6 3 3 0 0 0 0 6Z"/></svg>' +
  '<svg class="reveal-hide" viewBox="0 0 24 24" aria-hidden="true" focusable="false"><path d="M3 3l18 18 M10.6 5.1A10.8 10.8 0 0 1 12 5c6.4 0 10 7 10 7a17.6 17.6 0 0 1-3.2 4.1 M6.6 6.6C3.8 8.4 2 12 2 12s3.6 7 10 7a9.7 9.7 0 0 0 5.4-1.6 M9.9 9.9a3 3 0 0 0 4.2 4.2"/></svg>';

/**
 * The frame every page shares: brand bar, one card, one external stylesheet; a page that needs it
 * (the sign-in form's "Show password") adds the one external script, deferred.
 */
function layout(page: PageContext, title: string, content: string, scripts: string[] = []): string {
  const { lang, texts } = page;
  return `<!doctype html>
<html lang="${lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(title)} – Roadpass</title>
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="${escapeHtml(page.stylesheetUrl)}">
${scripts.map((script) => `<script src="${escapeHtml(script)}" defer></script>\n`).join('')}</head>
<body>
<header class="brand-bar">
<div class="brand">
<span class="brand-icon">${carIcon}</span>
<div>
<p class="brand-name">Roadpass</p>
<p class="tagline">${escapeHtml(texts.tagline)}</p>
</div>
</div>
</header>
<main id="main">
<div class="card">
${content}
</div>
</main>
${languageChoice(page)}
</body>
</html>
`;
}

export interface LoginFormState {
  /** Where the form posts to. */
  action: string;
  /** The e-mail to show in the field (what the customer typed, or the login_hint). */
  email: string;
  fieldErrors?: { email?: string; password?: string };
  /** A message about the whole form (wrong credentials, too many attempts). */
  formError?: string;
  /** The e-mail and password were rejected: both fields are marked invalid. */
  credentialsRejected?: boolean;
  /** The "Forgot your password?" page of this interaction (docs/product/security.md#forgot-password). */
  forgotHref?: string;
  /**
   * Passkey sign-in (docs/product/identity-provider.md#passkey-sign-in): where the hidden form posts
   * the assertion to, and where the script gets its challenge.
   */
  passkey?: { action: string; optionsUrl: string };
}

/**
 * The sign-in form. Errors are announced (role="alert") and tied to their fields with
 * aria-describedby; the first field that needs attention gets the focus (autofocus, no script).
 */
export function loginPage(page: PageContext, state: LoginFormState): string {
  const { texts } = page;
  const fieldErrors = state.fieldErrors ?? {};
  // A missing field first; otherwise the password when the e-mail is already filled in (after
  // rejected credentials the e-mail is kept and the password must be typed again).
  const focus: 'email' | 'password' = fieldErrors.email
    ? 'email'
    : fieldErrors.password || state.email
      ? 'password'
      : 'email';

  const field = (name: 'email' | 'password') => {
    const error = fieldErrors[name];
    const describedBy = [error ? `${name}-error` : undefined, state.formError ? 'form-error' : undefined]
      .filter(Boolean)
      .join(' ');
    const invalid = Boolean(error) || Boolean(state.credentialsRejected);
    const attributes = [
      `id="${name}"`,
      `name="${name}"`,
      name === 'email'
        ? `type="email" autocomplete="${state.passkey ? 'username webauthn' : 'username'}" inputmode="email" autocapitalize="none" spellcheck="false" maxlength="254" value="${escapeHtml(state.email)}"`
        : 'type="password" autocomplete="current-password" maxlength="1024"',
      'required',
      invalid ? 'aria-invalid="true"' : '',
      describedBy ? `aria-describedby="${describedBy}"` : '',
      focus === name ? 'autofocus' : '',
    ]
      .filter(Boolean)
      .join(' ');
    const label = name === 'email' ? texts.emailLabel : texts.passwordLabel;
    // "Show password": an icon button inside the field, hidden until the script shows it.
    const control =
      name === 'password'
        ? `<div class="field-control">
<input ${attributes}>
<button type="button" class="reveal" data-reveal aria-controls="password" aria-label="${escapeHtml(texts.showPassword)}" data-show="${escapeHtml(texts.showPassword)}" data-hide="${escapeHtml(texts.hidePassword)}" hidden>${eyeIcon}</button>
</div>`
        : `<input ${attributes}>`;
    return `<div class="field">
<label for="${name}">${escapeHtml(label)}</label>
${control}
${error ? `<p class="field-error" id="${name}-error" role="alert">${escapeHtml(error)}</p>` : ''}
</div>`;
  };

  return layout(
    page,
    texts.heading,
    `<h1>${escapeHtml(texts.heading)}</h1>
<p class="intro">${escapeHtml(texts.intro)}</p>
${state.formError ? `<div class="alert" id="form-error" role="alert">${escapeHtml(state.formError)}</div>` : ''}
<form method="post" action="${escapeHtml(state.action)}" novalidate>
${field('email')}
${field('password')}
<div class="actions">
<button type="submit" class="button">${escapeHtml(texts.submit)}</button>
</div>
</form>
${state.forgotHref ? `<p class="secondary-link"><a href="${escapeHtml(state.forgotHref)}">${escapeHtml(texts.forgotLink)}</a></p>` : ''}
${state.passkey ? passkeyPart(page, state.passkey) : ''}`,
    state.passkey ? [loginScriptUrl, loginPasskeyScriptUrl] : [loginScriptUrl],
  );
}

/**
 * The passkey button and the hidden form its script posts the assertion with. Hidden without the
 * script (and in browsers without WebAuthn): the page then is the password form alone.
 */
function passkeyPart(page: PageContext, passkey: { action: string; optionsUrl: string }): string {
  const { texts } = page;
  return `<div class="passkey">
<div class="alert" id="passkey-error" role="alert" data-text="${escapeHtml(texts.passkeyFailed)}" hidden></div>
<button type="button" class="button button-secondary" data-passkey hidden>${escapeHtml(texts.passkeyButton)}</button>
<form id="passkey-form" method="post" action="${escapeHtml(passkey.action)}" data-options="${escapeHtml(passkey.optionsUrl)}" hidden>
<input type="hidden" name="credential">
</form>
</div>`;
}

/** "Show password" inside a password field, hidden until the script shows it. */
const revealButton = (texts: Texts, controls: string) =>
  `<button type="button" class="reveal" data-reveal aria-controls="${controls}" aria-label="${escapeHtml(texts.showPassword)}" data-show="${escapeHtml(texts.showPassword)}" data-hide="${escapeHtml(texts.hidePassword)}" hidden>${eyeIcon}</button>`;

export interface ForgotFormState {
  action: string;
  email: string;
  emailError?: string;
  /** The sign-in page to go back to. */
  backHref: string;
}

/** "Forgot your password?": one field, the e-mail address (docs/product/security.md#forgot-password). */
export function forgotPasswordPage(page: PageContext, state: ForgotFormState): string {
  const { texts } = page;
  const invalid = state.emailError ? ' aria-invalid="true" aria-describedby="email-error"' : '';
  return layout(
    page,
    texts.forgotTitle,
    `<h1>${escapeHtml(texts.forgotTitle)}</h1>
<p class="intro">${escapeHtml(texts.forgotIntro)}</p>
<form method="post" action="${escapeHtml(state.action)}" novalidate>
<div class="field">
<label for="email">${escapeHtml(texts.emailLabel)}</label>
<input id="email" name="email" type="email" autocomplete="username" inputmode="email" autocapitalize="none" spellcheck="false" maxlength="254" value="${escapeHtml(state.email)}" required autofocus${invalid}>
${state.emailError ? `<p class="field-error" id="email-error" role="alert">${escapeHtml(state.emailError)}</p>` : ''}
</div>
<div class="actions">
<button type="submit" class="button">${escapeHtml(texts.forgotSubmit)}</button>
<a class="button button-secondary" href="${escapeHtml(state.backHref)}">${escapeHtml(texts.backToSignIn)}</a>
</div>
</form>`,
  );
}

/** The same answer whether or not the address has an account. */
export function forgotPasswordSentPage(
  page: PageContext,
  email: string,
  minutes: number,
  backHref: string,
): string {
  const { texts } = page;
  const text = texts.forgotSentText.replace('{email}', email).replace('{minutes}', String(minutes));
  return layout(
    page,
    texts.forgotSentTitle,
    `<h1>${escapeHtml(texts.forgotSentTitle)}</h1>
<p class="intro" role="status">${escapeHtml(text)}</p>
<div class="actions">
<a class="button" href="${escapeHtml(backHref)}">${escapeHtml(texts.backToSignIn)}</a>
</div>`,
  );
}

export interface ResetFormState {
  action: string;
  /** The account's address, for password managers (read-only). */
  email: string;
  /** What the new password breaks of the served rules, in the page's language. */
  passwordErrors?: string[];
}

/** The page behind a reset link: a new password, checked on the server with the served rules. */
export function resetPasswordPage(page: PageContext, state: ResetFormState): string {
  const { texts } = page;
  const errors = state.passwordErrors ?? [];
  const invalid = errors.length ? ' aria-invalid="true" aria-describedby="password-error"' : '';
  return layout(
    page,
    texts.resetTitle,
    `<h1>${escapeHtml(texts.resetTitle)}</h1>
<p class="intro">${escapeHtml(texts.resetIntro)}</p>
<form method="post" action="${escapeHtml(state.action)}" novalidate>
<input type="text" name="username" autocomplete="username" value="${escapeHtml(state.email)}" hidden readonly>
<div class="field">
<label for="password">${escapeHtml(texts.newPasswordLabel)}</label>
<div class="field-control">
<input id="password" name="password" type="password" autocomplete="new-password" maxlength="1024" required autofocus${invalid}>
${revealButton(texts, 'password')}
</div>
${errors.length ? `<div class="field-error" id="password-error" role="alert">${errors.map((e) => `<p>${escapeHtml(e)}</p>`).join('')}</div>` : ''}
</div>
<div class="actions">
<button type="submit" class="button">${escapeHtml(texts.resetSubmit)}</button>
</div>
</form>`,
    [loginScriptUrl],
  );
}

/** "This wasn't me": one button that ends every session, then the reset page. */
export function notMePage(page: PageContext, action: string): string {
  const { texts } = page;
  return layout(
    page,
    texts.notMeTitle,
    `<h1>${escapeHtml(texts.notMeTitle)}</h1>
<p class="intro">${escapeHtml(texts.notMeText)}</p>
<form method="post" action="${escapeHtml(action)}">
<div class="actions">
<button type="submit" class="button">${escapeHtml(texts.notMeSubmit)}</button>
</div>
</form>`,
  );
}

/** A translated error page: what happened in plain words, a way back, no internal details. */
export function errorPage(page: PageContext, message: string, appUrl: string): string {
  const { texts } = page;
  return layout(
    page,
    texts.errorTitle,
    `<h1>${escapeHtml(texts.errorTitle)}</h1>
<p class="intro">${escapeHtml(message)}</p>
<div class="actions">
<a class="button" href="${escapeHtml(appUrl)}">${escapeHtml(texts.backToApp)}</a>
</div>`,
  );
}

/**
 * Shown only when a logout request cannot prove it comes from the signed-in customer's app (no
 * valid id_token_hint): the provider's hidden form plus two choices.
 */
export function logoutConfirmPage(page: PageContext, providerForm: string, appUrl: string): string {
  const { texts } = page;
  return layout(
    page,
    texts.logoutTitle,
    `<h1>${escapeHtml(texts.logoutTitle)}</h1>
<p class="intro">${escapeHtml(texts.logoutQuestion)}</p>
${providerForm}
<div class="actions">
<button type="submit" class="button" form="op.logoutForm" name="logout" value="yes" autofocus>${escapeHtml(texts.logoutConfirm)}</button>
<a class="button button-secondary" href="${escapeHtml(appUrl)}">${escapeHtml(texts.logoutCancel)}</a>
</div>`,
  );
}

/** After a logout that named no post_logout_redirect_uri. */
export function loggedOutPage(page: PageContext, appUrl: string): string {
  const { texts } = page;
  return layout(
    page,
    texts.loggedOutTitle,
    `<h1>${escapeHtml(texts.loggedOutTitle)}</h1>
<p class="intro">${escapeHtml(texts.loggedOutText)}</p>
<div class="actions">
<a class="button" href="${escapeHtml(appUrl)}">${escapeHtml(texts.signInAgain)}</a>
</div>`,
  );
}
