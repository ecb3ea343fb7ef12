import type { FastifyPluginAsync } from 'fastify';
import { Gauge } from 'prom-client';
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
      () =>
        app.backgroundJob('messages-purge', async () => {
          const counts = await purgeMessagingData(app.db, new Date(), config.outboxRetentionDays);
          if (Object.values(counts).some((n) => n > 0))
            log.info(counts, 'old messages and expired links purged');
        }),
      config.messagesPurgeIntervalSeconds * 1000,
      (err) => log.error({ err }, 'messages purge failed'),
    );
    app.addHook('onClose', () => timer.stop());
  }
  const registry = app.operations.metrics;
  if (registry) {
    const db = app.db;
    new Gauge({
      name: 'roadpass_outbox_backlog',
      help: 'Messages in the outbox neither delivered nor failed, by channel (SMS has no provider yet)',
      labelNames: ['channel'] as const,
      registers: [registry],
      async collect() {
        const rows = await db
          .selectFrom('outbox')
          .select(['channel', (eb) => eb.fn.countAll<string>().as('count')])
          .where('delivered_at', 'is', null)
          .where('delivery_error', 'is', null)
          .groupBy('channel')
          .execute();
        this.reset();
        this.set({ channel: 'email' }, 0);
        this.set({ channel: 'sms' }, 0);
        for (const row of rows) this.set({ channel: row.channel }, Number(row.count));
      },
    });
  }
  if (config.env !== 'production') await app.register(devOutboxRoutes, { db: app.db });
};
