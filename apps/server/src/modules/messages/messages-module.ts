import type { FastifyPluginAsync } from 'fastify';
import type { AppConfig } from '../../config.js';
import { startExpiryTimer } from '../loyalty/index.js';
import { devOutboxRoutes } from './dev-outbox-routes.js';
import { purgeMessagingData } from './purge.js';

/**
 * What the messages module runs besides its sender (which app.ts makes first, for the modules that
 * send): the purge of old messages and expired links, and outside production the outbox page.
 */
export const messagesModule: FastifyPluginAsync<{ config: AppConfig }> = async (app, { config }) => {
  if (config.messagesPurgeIntervalSeconds > 0) {
    const log = app.log.child({ module: 'messages-purge' });
    const timer = startExpiryTimer(
      async () => {
        const counts = await purgeMessagingData(app.db, new Date(), config.outboxRetentionDays);
        if (Object.values(counts).some((n) => n > 0))
          log.info(counts, 'old messages and expired links purged');
      },
      config.messagesPurgeIntervalSeconds * 1000,
      (err) => log.error({ err }, 'messages purge failed'),
    );
    app.addHook('onClose', () => timer.stop());
  }
  if (config.env !== 'production') await app.register(devOutboxRoutes, { db: app.db });
};
