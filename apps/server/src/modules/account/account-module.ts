import type { FastifyPluginAsync } from 'fastify';
import type { CustomerRepository } from '../customers/index.js';
import type { TranslationSet } from '../content/index.js';
import type { EmailChangeService } from '../email-change/index.js';
import type { AccountRules } from './account-rules-content.js';
import { passwordRoutes } from './password-routes.js';
import { personalDataRoutes } from './personal-data-routes.js';

/** The customer's own account: personal data (docs/product/api.md#calls) and the password. */
export const accountModule: FastifyPluginAsync<{
  customers: CustomerRepository;
  rules: AccountRules;
  emailChange: EmailChangeService;
  translations: TranslationSet;
  /** Step-up window of the e-mail and password changes (docs/product/security.md#step-up). */
  recentSignInSeconds: number;
}> = async (app, { customers, rules, emailChange, translations, recentSignInSeconds }) => {
  await app.register(personalDataRoutes, {
    customers,
    rules,
    emailChange,
    translations,
    recentSignInSeconds,
  });
  await app.register(passwordRoutes, { customers, rules, translations, recentSignInSeconds });
};
