import type { FastifyPluginAsync } from 'fastify';
import type { AppConfig } from '../../config.js';
import type { CustomerRepository } from '../customers/customer-repository.js';
import type { LoyaltyContent } from '../content/loyalty-content.js';

/** Loyalty calls of spec §7 and the internal events endpoint. (Placeholder until the loyalty work lands.) */
export const loyaltyModule: FastifyPluginAsync<{
  config: AppConfig;
  customers: CustomerRepository;
  content: LoyaltyContent;
}> = async () => {};
