import type { FastifyPluginAsync } from 'fastify';
import { Gauge } from 'prom-client';
import { LOYALTY_EVENTS_SCOPE } from '@roadpass/contracts';
import type { AppConfig } from '../../config.js';
import { serviceTokenCheck } from '../../plugins/service-auth.js';
import type { CustomerRepository } from '../customers/index.js';
import type { LoyaltyContent } from '../content/index.js';
import { redisWaitingPlaces } from '../../lib/shared-waiting-places.js';
import { createBatchLane } from './batch-lane.js';
import { startExpiryTimer } from './expiry-timer.js';
import { internalEventsRoutes } from './internal-events-routes.js';
import { loyaltyRoutes } from './loyalty-routes.js';
import { createLoyaltyService } from './loyalty-service.js';
import { createExpiryReminders } from './expiry-reminders.js';
import type { MessageSender, MessageTexts } from '../messages/index.js';
import { serviceClientSecret } from './service-client.js';

/**
 * The loyalty programme's server side: the member calls of docs/product/api.md#calls, the internal events endpoint for
 * the rental system, the expiry timer (docs/product/loyalty.md#loyalty-rules) and the points reminders.
 */
export const loyaltyModule: FastifyPluginAsync<{
  config: AppConfig;
  customers: CustomerRepository;
  content: LoyaltyContent;
  messages: MessageSender;
  texts: MessageTexts;
}> = async (app, { config, customers, content, messages, texts }) => {
  const service = createLoyaltyService({ db: app.db, content, cache: app.readCaches.loyalty });
  const reminders = createExpiryReminders({
    db: app.db,
    sender: messages,
    texts,
    publicUrl: config.publicUrl,
    days: config.loyaltyReminderDays,
  });

  await app.register(loyaltyRoutes, { customers, service, reminders });

  // Tokens come from the external realm's service account, or from the embedded provider's service
  // client when it has a secret (none in production unless LOYALTY_CLIENT_SECRET is set).
  app.decorateRequest('serviceClient', undefined);
  const configured =
    Boolean(config.externalIssuer) || (await serviceClientSecret(app.db, config)) !== undefined;
  const lane = createBatchLane({
    share: config.loyaltyBatchSharePercent / 100,
    maxWaiting: config.loyaltyBatchQueue,
    // With REDIS_URL, LOYALTY_BATCH_QUEUE counts the batches waiting on all instances (issue 21 §2).
    places: app.redis
      ? redisWaitingPlaces(app.redis, `${config.redisKeyPrefix}loyalty-batch-lane:waiting`, app.log)
      : undefined,
  });
  const registry = app.operations.metrics;
  if (registry)
    new Gauge({
      name: 'roadpass_loyalty_batch_lane_waiting',
      help: 'Event batches waiting for their turn in the lane (decision 0013); LOYALTY_BATCH_QUEUE is the most',
      registers: [registry],
      collect() {
        this.set(lane.waiting);
      },
    });
  await app.register(internalEventsRoutes, {
    service,
    lane,
    bodyLimitBytes: config.bodyLimitBytes,
    checkServiceToken: serviceTokenCheck(app, {
      config,
      audience: config.loyaltyAudience,
      scope: LOYALTY_EVENTS_SCOPE,
      configured,
      notConfiguredMessage:
        'The loyalty events endpoint is not configured on this server: set LOYALTY_CLIENT_SECRET to register the service client',
    }),
  });

  if (config.loyaltyExpiryIntervalSeconds > 0) {
    const log = app.log.child({ module: 'loyalty-expiry' });
    const timer = startExpiryTimer(
      () =>
        app.backgroundJob('loyalty-expiry', async () => {
          const totals = await service.expireAll();
          if (totals.customers > 0) log.info(totals, 'loyalty points and tiers expired');
        }),
      config.loyaltyExpiryIntervalSeconds * 1000,
      (err) => log.error({ err }, 'loyalty expiry run failed'),
    );
    app.addHook('onClose', () => timer.stop());
  }

  // Points reminders (docs/product/loyalty.md#expiry-reminders): every instance runs them, as it runs
  // expiry; the (lot, kind) key lets one of them write each reminder (decision 0035).
  if (config.loyaltyReminderIntervalSeconds > 0) {
    const log = app.log.child({ module: 'loyalty-reminders' });
    const timer = startExpiryTimer(
      () =>
        app.backgroundJob('loyalty-reminders', async () => {
          const totals = await reminders.run();
          if (totals.emails > 0) log.info(totals, 'points expiry reminders written');
        }),
      config.loyaltyReminderIntervalSeconds * 1000,
      (err) => log.error({ err }, 'points reminder run failed'),
    );
    app.addHook('onClose', () => timer.stop());
  }
};
