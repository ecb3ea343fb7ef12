import Type from 'typebox';
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import {
  apiPaths,
  ApiErrorBody,
  checkValues,
  compileRules,
  ConstraintViolationError,
  customValidators,
  PasswordResponse,
  PasswordUpdate,
  type RuleViolation,
} from '@roadpass/contracts';
import { type CustomerRepository, signedInCustomer } from '../customers/index.js';
import type { TranslationSet } from '../content/index.js';
import type { AccountRules } from './account-rules-content.js';
import { ruleText } from './account-texts.js';
import { endSessions } from '../sessions/index.js';
import { recordSecurityEvent } from '../security-activity/index.js';
import { assertRecentSignIn } from '../../plugins/recent-sign-in.js';
import { ConstraintViolation } from '../../lib/constraint-violation.js';

/**
 * Password (docs/product/api.md#calls, docs/product/account-rules.md#account-rules): GET answers the policy as meta (never a password); PUT
 * checks the new password with those very rules through the contracts' interpreter, then the old
 * password; on success the hash changes and, unless the customer unticks "Sign out of all other devices",
 * every OTHER session of the customer ends (the current one stays). 400s carry constraintViolationMetaInfo with texts in the customer's language.
 */
export const passwordRoutes: FastifyPluginAsync<{
  customers: CustomerRepository;
  rules: AccountRules;
  translations: TranslationSet;
  recentSignInSeconds: number;
}> = async (app, { customers, rules, translations, recentSignInSeconds }) => {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const compiled = compileRules(rules.passwordMeta);
  const response = () => ({
    body: { PasswordRTO: { password: null, passwordOld: null } },
    meta: { metaDataList: rules.passwordMeta },
  });

  api.get(
    apiPaths.password,
    {
      schema: {
        tags: ['customer'],
        summary: 'The password policy as meta (no password is ever answered)',
        security: [{ bearer: [] }],
        response: { 200: PasswordResponse, 401: ApiErrorBody, 403: ApiErrorBody, 404: ApiErrorBody },
      },
    },
    async () => response(),
  );

  api.put(
    apiPaths.password,
    {
      schema: {
        tags: ['customer'],
        summary: "Change the password: the old one is checked; the customer's other sessions end",
        security: [{ bearer: [] }],
        body: PasswordUpdate,
        response: {
          200: PasswordResponse,
          // The rules' refusals carry the spec's violation list; a body that is not even an object
          // gets the plain API error (a 500 before: the error could not be written in this schema).
          400: Type.Union([ConstraintViolationError, ApiErrorBody]),
          401: ApiErrorBody,
          403: ApiErrorBody,
          404: ApiErrorBody,
        },
      },
    },
    async (request) => {
      const customer = await signedInCustomer(customers, request);
      // docs/product/security.md#step-up: a new password needs a recent sign-in.
      assertRecentSignIn(request.customer!, recentSignInSeconds);
      const refuse = (violations: RuleViolation[]) =>
        new ConstraintViolation(
          400,
          'The password was not changed',
          violations.map((v) => ({
            attribute: v.field,
            validator: v.rule,
            parameter: v.parameter,
            text: ruleText(translations, customer.language, v),
          })),
        );
      const violations = checkValues(compiled, request.body, { customValidators });
      if (violations.length) throw refuse(violations);
      if (!(await customers.hasPassword(customer.id, request.body.passwordOld)))
        throw refuse([{ field: 'passwordOld', rule: 'passwordOld', parameter: 'true' }]);
      await customers.setPassword(customer.id, request.body.password);
      await recordSecurityEvent(app.db, customer.id, 'password_changed', {
        signedOutOtherDevices: request.body.signOutOtherDevices !== false,
      });
      // ASVS 7.4.3: other devices are signed out unless the customer unticks it
      // (docs/product/security.md#sessions).
      const ended =
        request.body.signOutOtherDevices === false
          ? 0
          : (
              await endSessions(
                app.db,
                customer.id,
                { except: request.customer!.sessionId },
                'password_changed',
              )
            ).length;
      request.log.info({ sessionsEnded: ended }, 'password changed');
      return response();
    },
  );
};
