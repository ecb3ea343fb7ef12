import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import formbody from '@fastify/formbody';
import { isLanguage, type Language, type RuleViolation } from '@roadpass/contracts';
import { errors, type Provider } from 'oidc-provider';
import type { CustomerRepository } from '../modules/customers/index.js';
import type { PasskeyService } from '../modules/passkeys/index.js';
import { RESET_TTL_SECONDS, type RecoveryService } from '../modules/recovery/index.js';
import { loginCss, loginCssVersion } from './login-css.js';
import { loginPasskeyScript, loginPasskeyScriptVersion } from './login-passkey-script.js';
import { loginScript, loginScriptVersion } from './login-script.js';
import {
  LAST_LANGUAGE_COOKIE,
  LAST_LANGUAGE_COOKIE_MAX_AGE_SECONDS,
  lastLanguageOf,
  negotiateLanguage,
  tooManyAttemptsText,
  type LoginTexts,
} from './login-texts.js';
import { DEVICE_COOKIE, DEVICE_COOKIE_MAX_AGE_SECONDS, type LoginThrottle } from './login-throttle.js';
import {
  errorPage,
  forgotPasswordPage,
  forgotPasswordSentPage,
  loginPage,
  notMePage,
  resetPasswordPage,
  type LoginFormState,
  type PageContext,
} from './pages.js';
import {
  FORGOT_PASSWORD_ROUTE,
  forgotPasswordPath,
  LOGIN_PAGE_ROUTE,
  loginPagePath,
  NOT_ME_ROUTE,
  notMePath,
  PASSWORD_RESET_ROUTE,
  passwordResetPath,
  PASSKEY_SCRIPT_PATH,
  REALM_PATH,
  SCRIPT_PATH,
  STYLESHEET_PATH,
} from './realm.js';

/** A customer who has just proved who they are (by password or passkey). */
type SignedInCustomer = NonNullable<Awaited<ReturnType<CustomerRepository['findById']>>>;

export interface LoginRouteDependencies {
  provider: Provider;
  customers: CustomerRepository;
  passkeys: PasskeyService;
  throttle: LoginThrottle;
  /** Device cookies get the Secure attribute (the public URL is https). */
  secureCookies: boolean;
  texts: LoginTexts;
  appUrl: string;
  stylesheetUrl: string;
  /** Makes the raw request look the way the provider must see it (public origin and protocol). */
  canonicalise: (req: IncomingMessage) => void;
  /**
   * Records sign-ins and failed attempts in the customer's security activity
   * (docs/product/security.md#security-activity).
   */
  recordEvent?: (
    customerId: string,
    kind: 'signed_in' | 'sign_in_failed',
    details: { userAgent: string; address: string },
  ) => Promise<void>;
  /** Reset links, the new-device notice and the sign-in after a reset. */
  recovery: RecoveryService;
  /** A broken password rule in words, in a language (the texts the app shows too). */
  ruleText: (lang: Language, violation: RuleViolation) => string;
}

/** After a reset, this browser's next sign-in page signs the customer in once without the password. */
const AFTER_RESET_COOKIE = 'roadpass_after_reset';
/** Reset e-mails one client address may set off per hour; more are answered alike, silently. */
const RESET_REQUESTS_PER_ADDRESS_PER_HOUR = 10;

const MAX_EMAIL_LENGTH = 254;

/** The device of a sign-in attempt as the security activity keeps it. */
const deviceOf = (request: { headers: Record<string, unknown>; ip: string }) => ({
  userAgent:
    typeof request.headers['user-agent'] === 'string' ? request.headers['user-agent'].slice(0, 512) : '',
  address: request.ip,
});

interface LoginPageRoute {
  Params: { uid: string };
  Querystring: { lang?: string };
}
type LoginPageRequest = FastifyRequest<LoginPageRoute>;
/** An e-mail address and a password, URL-encoded, with room to spare. */
const SIGN_IN_FORM_LIMIT_BYTES = 16 * 1024;

/** The value of one cookie of a request (the sign-in pages need only the device cookie). */
function cookieOf(request: FastifyRequest, name: string): string | undefined {
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const separator = part.indexOf('=');
    if (separator > 0 && part.slice(0, separator).trim() === name) return part.slice(separator + 1).trim();
  }
  return undefined;
}

/** Adds a Set-Cookie line without dropping the ones the provider set on the raw response. */
function appendSetCookie(reply: FastifyReply, line: string): void {
  const existing = reply.raw.getHeader('set-cookie');
  const lines = existing === undefined ? [] : Array.isArray(existing) ? existing : [String(existing)];
  reply.raw.setHeader('set-cookie', [...lines, line]);
}

/**
 * The realm's own pages that are not the provider's: the stylesheet and the sign-in form of an
 * interaction. The form is bound to its interaction by the uid in the URL and the provider's
 * interaction cookie (scoped to that URL, SameSite=Lax, signed), which is also what protects it
 * against cross-site posts.
 */
export async function registerLoginRoutes(app: FastifyInstance, deps: LoginRouteDependencies): Promise<void> {
  const { provider, customers, passkeys, throttle, texts } = deps;
  const cookieSuffix = `Path=${REALM_PATH}; HttpOnly; SameSite=Lax${deps.secureCookies ? '; Secure' : ''}`;
  const deviceCookie = (value: string) =>
    `${DEVICE_COOKIE}=${value}; Max-Age=${DEVICE_COOKIE_MAX_AGE_SECONDS}; ${cookieSuffix}`;
  const clearCookie = (name: string) => `${name}=; Max-Age=0; ${cookieSuffix}`;
  const pageContext = (lang: Language): PageContext => ({
    lang,
    texts: texts[lang],
    stylesheetUrl: deps.stylesheetUrl,
  });

  app.get<{ Querystring: { v?: string } }>(STYLESHEET_PATH, async (request, reply) => {
    const versioned = request.query.v === loginCssVersion;
    return reply
      .type('text/css; charset=utf-8')
      .header('cache-control', versioned ? 'public, max-age=31536000, immutable' : 'public, max-age=300')
      .send(loginCss);
  });

  app.get<{ Querystring: { v?: string } }>(SCRIPT_PATH, async (request, reply) => {
    const versioned = request.query.v === loginScriptVersion;
    return reply
      .type('text/javascript; charset=utf-8')
      .header('cache-control', versioned ? 'public, max-age=31536000, immutable' : 'public, max-age=300')
      .send(loginScript);
  });

  app.get<{ Querystring: { v?: string } }>(PASSKEY_SCRIPT_PATH, async (request, reply) => {
    const versioned = request.query.v === loginPasskeyScriptVersion;
    return reply
      .type('text/javascript; charset=utf-8')
      .header('cache-control', versioned ? 'public, max-age=31536000, immutable' : 'public, max-age=300')
      .send(loginPasskeyScript);
  });

  await app.register(async (scope) => {
    // Form bodies are the sign-in form's alone: the API documents and accepts JSON only.
    await scope.register(formbody, { bodyLimit: SIGN_IN_FORM_LIMIT_BYTES });
    const sendPage = (reply: FastifyReply, status: number, html: string) =>
      reply.status(status).header('cache-control', 'no-store').type('text/html; charset=utf-8').send(html);

    // Errors on these routes are pages, not the API's JSON: translated, without internal details.
    scope.setErrorHandler((error: Error & { statusCode?: number }, request, reply) => {
      const lang = negotiateLanguage(
        undefined,
        request.headers['accept-language'],
        cookieOf(request, LAST_LANGUAGE_COOKIE),
      );
      const page = pageContext(lang);
      if (error instanceof errors.SessionNotFound) {
        return sendPage(reply, 400, errorPage(page, page.texts.sessionExpired, deps.appUrl));
      }
      const status =
        typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500
          ? error.statusCode
          : 500;
      if (status === 500) request.log.error({ err: error }, 'sign-in page failed');
      return sendPage(reply, status, errorPage(page, page.texts.errorText, deps.appUrl));
    });

    /**
     * The interaction of this request, checked against the uid in the URL, and its language: the one
     * chosen on the page (`?lang=`), else the app's ui_locales, else the last customer's here, else
     * the browser's.
     */
    async function interactionOf(request: LoginPageRequest, reply: FastifyReply) {
      deps.canonicalise(request.raw);
      const details = await provider.interactionDetails(request.raw, reply.raw);
      if (details.uid !== request.params.uid) throw new errors.SessionNotFound('interaction mismatch');
      const chosen = request.query.lang;
      const lang =
        chosen && isLanguage(chosen)
          ? chosen
          : negotiateLanguage(
              details.params.ui_locales,
              request.headers['accept-language'],
              cookieOf(request, LAST_LANGUAGE_COOKIE),
            );
      const here = (language: Language) => `${loginPagePath(details.uid)}?lang=${language}`;
      const inLanguage = chosen && isLanguage(chosen) ? `?lang=${lang}` : '';
      return {
        details,
        lang,
        page: { ...pageContext(lang), languageHref: here },
        // The form posts back in the language shown.
        action: chosen && isLanguage(chosen) ? here(lang) : loginPagePath(details.uid),
        passkey: {
          action: `${loginPagePath(details.uid)}/passkey${inLanguage}`,
          optionsUrl: `${loginPagePath(details.uid)}/passkey-options`,
        },
      };
    }

    /** Any prompt other than login (none is expected for the first-party client) ends the request. */
    async function refuseOtherPrompts(request: FastifyRequest, reply: FastifyReply) {
      const returnTo = await provider.interactionResult(
        request.raw,
        reply.raw,
        { error: 'access_denied', error_description: 'unsupported interaction' },
        { mergeWithLastSubmission: false },
      );
      return reply.header('cache-control', 'no-store').redirect(returnTo, 303);
    }

    const formState = (
      action: string,
      email: string,
      extra: Partial<LoginFormState> = {},
    ): LoginFormState => ({
      action,
      email,
      forgotHref: action.replace(/(\/login-actions\/[^/?]+)/, '$1/forgot-password'),
      ...extra,
    });

    /**
     * A successful sign-in, by password or passkey: the device cookie of decision 0010 (and the
     * new-device notice when the device is new to the account), the security activity, the language
     * cookie, and the provider's login result (`amr` says how), then back to the provider.
     */
    async function finishSignIn(
      request: FastifyRequest,
      reply: FastifyReply,
      customer: SignedInCustomer,
      deviceCookieValue: string | undefined,
      amr: string[],
    ) {
      const attempt = { email: customer.email, ip: request.ip, deviceCookie: deviceCookieValue };
      const knownDevice = throttle.knowsDevice(attempt);
      const device = await throttle.recordSuccess(attempt);
      await deps.recordEvent?.(customer.id, 'signed_in', deviceOf(request));
      appendSetCookie(reply, deviceCookie(device));
      // docs/product/security.md#new-device-notice: sent in the background, the answer does not wait.
      deps.recovery
        .signedIn(customer, { knownDevice, userAgent: request.headers['user-agent'], ip: request.ip })
        .catch((err: unknown) => request.log.error({ err }, 'new-device notice failed'));
      // The next sign-in page here (after a sign-out or an expired session) speaks the customer's
      // language; signing out refreshes it with the language the customer has then.
      const last = lastLanguageOf(customer.language);
      if (last) {
        appendSetCookie(
          reply,
          `${LAST_LANGUAGE_COOKIE}=${last}; Path=${REALM_PATH}; Max-Age=${LAST_LANGUAGE_COOKIE_MAX_AGE_SECONDS}; HttpOnly; SameSite=Lax${deps.secureCookies ? '; Secure' : ''}`,
        );
      }
      return completeLogin(request, reply, customer.id, amr);
    }

    /** The provider's login result for the account, then back to the provider. */
    async function completeLogin(
      request: FastifyRequest,
      reply: FastifyReply,
      accountId: string,
      amr: string[],
    ) {
      const returnTo = await provider.interactionResult(
        request.raw,
        reply.raw,
        // acr "1": Keycloak's level of a single-factor sign-in (docs/keycloak-clients.md#tokens).
        { login: { accountId, acr: '1', amr, remember: true } },
        { mergeWithLastSubmission: false },
      );
      return reply.header('cache-control', 'no-store').redirect(returnTo, 303);
    }

    /**
     * The challenge of a passkey sign-in on this page (docs/product/identity-provider.md#passkey-sign-in):
     * bound to the interaction, single-use, five minutes; a new one replaces the page's previous one.
     */
    scope.post<LoginPageRoute>(`${LOGIN_PAGE_ROUTE}/passkey-options`, async (request, reply) => {
      const { details } = await interactionOf(request, reply);
      if (details.prompt.name !== 'login') throw new errors.SessionNotFound('no sign-in prompt');
      const options = await passkeys.authenticationOptions(details.uid);
      return reply.header('cache-control', 'no-store').type('application/json').send(options);
    });

    /**
     * A passkey sign-in: the browser's assertion (form field `credential`, JSON). Success ends the
     * interaction as a password sign-in does; every failure (unknown passkey, used or expired
     * challenge, bad signature) gets the same message and counts against the client's address
     * (decision 0010: there is no typed address to count against, and nothing to learn about one).
     */
    scope.post<LoginPageRoute>(`${LOGIN_PAGE_ROUTE}/passkey`, async (request, reply) => {
      const { details, page, lang, action, passkey } = await interactionOf(request, reply);
      if (details.prompt.name !== 'login') return refuseOtherPrompts(request, reply);
      const body = (request.body ?? {}) as Record<string, unknown>;
      const deviceCookie = cookieOf(request, DEVICE_COOKIE);
      const attempt = { email: '', ip: request.ip, deviceCookie };
      const verdict = await throttle.check(attempt);
      if (!verdict.allowed) {
        const minutes = Math.max(1, Math.ceil(verdict.retryAfterSeconds / 60));
        reply.header('retry-after', String(verdict.retryAfterSeconds));
        const formError = tooManyAttemptsText(page.texts, lang, minutes);
        return sendPage(reply, 429, loginPage(page, formState(action, '', { formError, passkey })));
      }
      let credential: unknown;
      try {
        credential = typeof body.credential === 'string' ? JSON.parse(body.credential) : undefined;
      } catch {
        credential = undefined;
      }
      const customerId = credential ? await passkeys.authenticate(details.uid, credential) : undefined;
      const customer = customerId ? await customers.findById(customerId) : undefined;
      if (!customer) {
        await throttle.recordFailure(attempt);
        request.log.info('sign-in refused: passkey not accepted');
        const state = formState(action, '', { formError: page.texts.passkeyFailed, passkey });
        return sendPage(reply, 401, loginPage(page, state));
      }
      // RFC 8176: proof of possession of a key, with the user verified by the authenticator.
      return finishSignIn(request, reply, customer, deviceCookie, ['pop', 'user']);
    });

    scope.get<LoginPageRoute>(LOGIN_PAGE_ROUTE, async (request, reply) => {
      const { details, page, action, passkey } = await interactionOf(request, reply);
      if (details.prompt.name !== 'login') return refuseOtherPrompts(request, reply);
      // Right after a password reset in this browser: signed in once, without the password.
      const afterReset = cookieOf(request, AFTER_RESET_COOKIE);
      if (afterReset) {
        appendSetCookie(reply, clearCookie(AFTER_RESET_COOKIE));
        const accountId = await deps.recovery.consumeSignIn(afterReset);
        if (accountId) return completeLogin(request, reply, accountId, ['pwd']);
      }
      const hint = details.params.login_hint;
      const email = typeof hint === 'string' && hint.length <= MAX_EMAIL_LENGTH ? hint : '';
      return sendPage(reply, 200, loginPage(page, formState(action, email, { passkey })));
    });

    scope.post<LoginPageRoute>(LOGIN_PAGE_ROUTE, async (request, reply) => {
      const { details, page, lang, action, passkey } = await interactionOf(request, reply);
      if (details.prompt.name !== 'login') return refuseOtherPrompts(request, reply);
      const body = (request.body ?? {}) as Record<string, unknown>;
      const email = typeof body.email === 'string' ? body.email.trim().slice(0, 1024) : '';
      const password = typeof body.password === 'string' ? body.password : '';
      const shownEmail = email.slice(0, MAX_EMAIL_LENGTH);

      const fieldErrors: LoginFormState['fieldErrors'] = {};
      if (!email) fieldErrors.email = page.texts.emailRequired;
      if (!password) fieldErrors.password = page.texts.passwordRequired;
      if (fieldErrors.email || fieldErrors.password) {
        return sendPage(reply, 400, loginPage(page, formState(action, shownEmail, { fieldErrors, passkey })));
      }

      const attempt = { email, ip: request.ip, deviceCookie: cookieOf(request, DEVICE_COOKIE) };
      const verdict = await throttle.check(attempt);
      if (!verdict.allowed) {
        const minutes = Math.max(1, Math.ceil(verdict.retryAfterSeconds / 60));
        reply.header('retry-after', String(verdict.retryAfterSeconds));
        const formError = tooManyAttemptsText(page.texts, lang, minutes);
        return sendPage(reply, 429, loginPage(page, formState(action, shownEmail, { formError, passkey })));
      }

      const customer =
        password.length <= 1024 ? await customers.verifyCredentials(email, password) : undefined;
      if (!customer) {
        await throttle.recordFailure(attempt);
        // Only the account's owner ever sees this entry. Recorded after the answer, so that neither the
        // answer nor its timing tells whether the address has an account.
        const { recordEvent } = deps;
        if (recordEvent && email.length <= MAX_EMAIL_LENGTH) {
          const device = deviceOf(request);
          void customers
            .findByEmail(email)
            .then((owner) => owner && recordEvent(owner.id, 'sign_in_failed', device))
            .catch((err: unknown) => request.log.warn({ err }, 'could not record a failed sign-in'));
        }
        request.log.info('sign-in refused: wrong e-mail or password');
        const state = formState(action, shownEmail, {
          formError: page.texts.invalidCredentials,
          credentialsRejected: true,
          passkey,
        });
        return sendPage(reply, 401, loginPage(page, state));
      }

      return finishSignIn(request, reply, customer, attempt.deviceCookie, ['pwd']);
    });

    // Account recovery (docs/product/security.md#forgot-password, #new-device-notice): the "Forgot
    // your password?" page, the page behind a reset link and the "This wasn't me" page. The links'
    // tokens are the secrets (256 bits); opening a link changes nothing (mail scanners open links),
    // only posting its form does.
    const languageOf = (request: FastifyRequest<{ Querystring: { lang?: string } }>): Language => {
      const chosen = request.query.lang;
      return chosen && isLanguage(chosen)
        ? chosen
        : negotiateLanguage(
            undefined,
            request.headers['accept-language'],
            cookieOf(request, LAST_LANGUAGE_COOKIE),
          );
    };
    const resetRequests = app.createRateLimit({
      max: RESET_REQUESTS_PER_ADDRESS_PER_HOUR,
      timeWindow: 3600 * 1000,
      keyGenerator: (request) => `password-reset:${request.ip}`,
    });

    type ForgotRoute = { Params: { uid: string }; Querystring: { lang?: string } };
    const forgotPage = (request: FastifyRequest<ForgotRoute>) => {
      const lang = languageOf(request);
      const here = (language: Language) => `${forgotPasswordPath(request.params.uid)}?lang=${language}`;
      const back = `${loginPagePath(request.params.uid)}?lang=${lang}`;
      return { lang, page: { ...pageContext(lang), languageHref: here }, action: here(lang), back };
    };

    scope.get<ForgotRoute>(FORGOT_PASSWORD_ROUTE, async (request, reply) => {
      const { page, action, back } = forgotPage(request);
      return sendPage(reply, 200, forgotPasswordPage(page, { action, email: '', backHref: back }));
    });

    scope.post<ForgotRoute>(FORGOT_PASSWORD_ROUTE, async (request, reply) => {
      const { page, action, back } = forgotPage(request);
      const body = (request.body ?? {}) as Record<string, unknown>;
      const email = typeof body.email === 'string' ? body.email.trim().slice(0, MAX_EMAIL_LENGTH) : '';
      if (!email) {
        const state = { action, email, backHref: back, emailError: page.texts.emailRequired };
        return sendPage(reply, 400, forgotPasswordPage(page, state));
      }
      // The same answer, at once, whether or not the address has an account: the look-up and the
      // e-mail happen in the background; over a limit nothing is sent and the answer is still this.
      const limit = await resetRequests(request);
      if (limit.isAllowed || !limit.isExceeded) {
        deps.recovery
          .requestReset(email)
          .catch((err: unknown) => request.log.error({ err }, 'password reset request failed'));
      } else request.log.info('password reset not sent: address over its hourly limit');
      return sendPage(reply, 200, forgotPasswordSentPage(page, email, RESET_TTL_SECONDS / 60, back));
    });

    type TokenRoute = { Params: { token: string }; Querystring: { lang?: string } };
    const tokenPage = (request: FastifyRequest<TokenRoute>, path: (token: string) => string) => {
      const lang = languageOf(request);
      const here = (language: Language) => `${path(request.params.token)}?lang=${language}`;
      return { lang, page: { ...pageContext(lang), languageHref: here }, action: here(lang) };
    };
    const linkInvalid = (reply: FastifyReply, page: PageContext) =>
      sendPage(
        reply,
        404,
        errorPage(
          { ...page, texts: { ...page.texts, errorTitle: page.texts.linkInvalidTitle } },
          page.texts.linkInvalidText,
          deps.appUrl,
        ),
      );

    scope.get<TokenRoute>(PASSWORD_RESET_ROUTE, async (request, reply) => {
      const { page, action } = tokenPage(request, passwordResetPath);
      const customer = await deps.recovery.resetHolder(request.params.token);
      if (!customer) return linkInvalid(reply, page);
      return sendPage(reply, 200, resetPasswordPage(page, { action, email: customer.email }));
    });

    scope.post<TokenRoute>(PASSWORD_RESET_ROUTE, async (request, reply) => {
      const { lang, page, action } = tokenPage(request, passwordResetPath);
      const customer = await deps.recovery.resetHolder(request.params.token);
      if (!customer) return linkInvalid(reply, page);
      const body = (request.body ?? {}) as Record<string, unknown>;
      const password = typeof body.password === 'string' ? body.password : '';
      // The served rules, through the contracts' interpreter (the app checks the same ones).
      const violations = deps.recovery.checkPassword(password);
      if (violations.length) {
        const passwordErrors = violations.map((v) => deps.ruleText(lang, v));
        return sendPage(
          reply,
          400,
          resetPasswordPage(page, { action, email: customer.email, passwordErrors }),
        );
      }
      const done = await deps.recovery.resetPassword(request.params.token, password, {
        ip: request.ip,
        userAgent: request.headers['user-agent'],
      });
      if (!done) return linkInvalid(reply, page);
      // Every session ended; this browser is signed in again by the app's next sign-in request, and
      // is a known device of the account from now on.
      const device = await throttle.recordSuccess({ email: done.customer.email, ip: request.ip });
      appendSetCookie(reply, deviceCookie(device));
      appendSetCookie(
        reply,
        `${AFTER_RESET_COOKIE}=${done.signInToken}; Max-Age=${15 * 60}; ${cookieSuffix}`,
      );
      request.log.info('password reset');
      return reply.header('cache-control', 'no-store').redirect(deps.appUrl, 303);
    });

    scope.get<TokenRoute>(NOT_ME_ROUTE, async (request, reply) => {
      const { page, action } = tokenPage(request, notMePath);
      if (!(await deps.recovery.notMeHolder(request.params.token))) return linkInvalid(reply, page);
      return sendPage(reply, 200, notMePage(page, action));
    });

    scope.post<TokenRoute>(NOT_ME_ROUTE, async (request, reply) => {
      const { lang, page } = tokenPage(request, notMePath);
      const resetToken = await deps.recovery.notMe(request.params.token, { ip: request.ip });
      if (!resetToken) return linkInvalid(reply, page);
      request.log.info('every session ended: "this wasn\'t me"');
      return reply
        .header('cache-control', 'no-store')
        .redirect(`${passwordResetPath(resetToken)}?lang=${lang}`, 303);
    });
  });
}
