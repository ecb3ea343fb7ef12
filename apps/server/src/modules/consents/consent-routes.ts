import type { FastifyPluginAsync } from 'fastify';
import type { CustomerRepository } from '../customers/customer-repository.js';
import type { LoyaltyContent } from '../content/loyalty-content.js';

/** The consent calls of spec §7. (Placeholder until the consents work lands.) */
export const consentRoutes: FastifyPluginAsync<{
  customers: CustomerRepository;
  content: LoyaltyContent;
}> = async () => {};
