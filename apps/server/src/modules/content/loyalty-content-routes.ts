import type { FastifyPluginAsync } from 'fastify';
import type { LoyaltyContent } from './loyalty-content.js';

/** Content calls of spec §7: tiers and FAQ, plus the content images. (Placeholder.) */
export const loyaltyContentRoutes: FastifyPluginAsync<{
  content: LoyaltyContent;
  contentDir: string;
}> = async () => {};
