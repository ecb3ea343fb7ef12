import type { FastifyPluginAsync } from 'fastify';
import { LOYALTY_EVENTS_SCOPE } from '@roadpass/contracts';
import type { AppConfig } from '../../config.js';
import { serviceTokenCheck } from '../../plugins/service-auth.js';
import type { CustomerRepository } from '../customers/index.js';
import { serviceClientSecret } from '../loyalty/index.js';
import type { MessageSender, MessageTexts } from '../messages/index.js';
import { dataRightsRoutes } from './data-rights-routes.js';
import { runDueErasures, type ErasureDeps } from './erasure.js';
import { dropExpiredExports, runWaitingExports } from './export-jobs.js';
import { dataRightsInternalRoutes } from './internal-routes.js';

/**
 * Data rights (docs/product/data-rights.md): the customer calls, the rental system's internal calls,
 * and the worker every instance runs: it builds waiting exports, drops expired ZIPs and erases
 * customers whose day has come. Work is claimed with FOR UPDATE SKIP LOCKED, so instances share it
 * and a restart loses nothing (decisions 0042, 0043).
 */
export const dataRightsModule: FastifyPluginAsync<{
  config: AppConfig;
  customers: CustomerRepository;
  sender: MessageSender;
  texts: MessageTexts;
}> = async (app, { config, customers, sender, texts }) => {
  const erasure: ErasureDeps = {
    db: app.db,
    texts,
    sender,
    publicUrl: config.publicUrl,
    graceDays: config.deletionGraceDays,
  };
  const log = app.log.child({ module: 'data-rights' });
  let running: Promise<void> | undefined;
  let again = false;
  let closed = false;
  const round = async () => {
    await runWaitingExports(erasure);
    await dropExpiredExports(app.db, new Date());
    const erased = await runDueErasures(erasure, new Date());
    if (erased > 0) log.info({ erased }, 'accounts erased');
  };
  /** Runs a round now unless one is running (then one more right after it). */
  const poke = () => {
    if (closed) return;
    if (running) {
      again = true;
      return;
    }
    running = app
      .backgroundJob('data-rights', round)
      .catch((err: unknown) => log.error({ err }, 'data-rights round failed'))
      .finally(() => {
        running = undefined;
        if (again) {
          again = false;
          poke();
        }
      });
  };
  const every = setInterval(poke, config.dataRightsIntervalSeconds * 1000);
  every.unref();
  app.addHook('onClose', async () => {
    closed = true;
    clearInterval(every);
    await running;
  });

  await app.register(dataRightsRoutes, {
    customers,
    erasure,
    recentSignInSeconds: config.recentSignInSeconds,
    exportQueued: poke,
  });

  // The rental system's client (the same service client as its loyalty events, decision 0008).
  const configured =
    Boolean(config.externalIssuer) || (await serviceClientSecret(app.db, config)) !== undefined;
  await app.register(dataRightsInternalRoutes, {
    db: app.db,
    checkServiceToken: serviceTokenCheck(app, {
      config,
      audience: config.loyaltyAudience,
      scope: LOYALTY_EVENTS_SCOPE,
      configured,
      notConfiguredMessage:
        'The rental system’s endpoints are not configured on this server: set LOYALTY_CLIENT_SECRET to register the service client',
    }),
  });
};
