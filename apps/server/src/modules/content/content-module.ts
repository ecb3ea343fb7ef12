import type { FastifyPluginAsync } from 'fastify';
import { contentRoutes } from './content-routes.js';
import { loyaltyContentRoutes } from './loyalty-content-routes.js';
import type { LoyaltyContent } from './loyalty-content.js';
import type { TranslationSet } from './translations.js';

/**
 * The served content: translations, and the loyalty programme's texts and images. The content itself
 * is loaded (and checked) before the server opens anything, so it comes in as options.
 */
export const contentModule: FastifyPluginAsync<{
  translations: TranslationSet;
  loyaltyContent: LoyaltyContent;
  contentDir: string;
}> = async (app, { translations, loyaltyContent, contentDir }) => {
  await app.register(contentRoutes, { translations });
  await app.register(loyaltyContentRoutes, { content: loyaltyContent, contentDir });
};
