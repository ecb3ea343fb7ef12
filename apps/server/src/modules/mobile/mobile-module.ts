import type { MetaDataList } from '@roadpass/contracts';
import type { FastifyPluginAsync } from 'fastify';
import type { CustomerRepository } from '../customers/index.js';
import type { MessageSender, MessageTexts } from '../messages/index.js';
import { mobileRoutes } from './mobile-routes.js';
import { createMobileService } from './mobile-service.js';

/** The customer's mobile number, changed by a PIN sent by SMS. */
export const mobileModule: FastifyPluginAsync<{
  customers: CustomerRepository;
  messages: MessageSender;
  texts: MessageTexts;
  /** The served mobile and PIN rules (content/account-rules), enforced through the shared interpreter. */
  rules: MetaDataList;
  /** Step-up window of a mobile number change (docs/product/security.md#step-up). */
  recentSignInSeconds: number;
}> = async (app, { customers, messages, texts, rules, recentSignInSeconds }) => {
  await app.register(mobileRoutes, {
    customers,
    recentSignInSeconds,
    mobile: createMobileService({ db: app.db, rules, sender: messages, texts }),
  });
};
