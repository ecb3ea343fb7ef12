import Fastify from 'fastify';
import { buildApp } from './app.js';
import { ConfigError, loadConfig } from './config.js';
import { acquireDataDirLock, DataDirBusyError } from './db/data-dir-lock.js';

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(2);
    }
    throw error;
  }
  // The embedded database is one process's: refuse to open it twice (operator command included).
  let lock;
  try {
    lock = config.databaseUrl ? undefined : acquireDataDirLock(config.dataDir, 'server');
  } catch (error) {
    if (error instanceof DataDirBusyError) {
      console.error(`${error.message}: stop it first, or start this server with another DATA_DIR`);
      process.exit(1);
    }
    throw error;
  }
  const app = await buildApp(config);
  // Health and metrics on a port of their own when MANAGEMENT_PORT is set (as Keycloak's 9000).
  const management = config.managementPort ? Fastify({ logger: false }) : undefined;
  if (management) app.operations.addRoutes(management);

  let stopping = false;
  // SIGTERM (docs/observability.md#shutdown): report not ready, keep serving while the load balancer
  // notices (SHUTDOWN_DELAY_SECONDS), then drain: Fastify stops accepting, closes idle keep-alive
  // connections and lets in-flight requests finish, for at most SHUTDOWN_GRACE_SECONDS.
  const close = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.operations.startDraining();
    const delay = signal === 'SIGTERM' ? config.shutdownDelaySeconds : 0;
    app.log.info({ signal, delaySeconds: delay }, 'not ready any more; draining after the delay');
    await new Promise((resolve) => setTimeout(resolve, delay * 1000));
    const grace = setTimeout(() => {
      app.log.warn('requests still running after SHUTDOWN_GRACE_SECONDS: exiting anyway');
      lock?.release();
      process.exit(1);
    }, config.shutdownGraceSeconds * 1000);
    grace.unref();
    await app.close();
    await management?.close();
    app.log.info('stopped');
    lock?.release();
    process.exit(0);
  };
  process.on('SIGINT', () => void close('SIGINT'));
  process.on('SIGTERM', () => void close('SIGTERM'));
  await app.listen({ port: config.port, host: config.host });
  if (management) await management.listen({ port: config.managementPort!, host: config.host });
  app.log.info(`Roadpass is serving on ${config.publicUrl}`);
  // Metrics name every route's rates and the sign-in outcomes: in production they belong on a port
  // the public cannot reach (deploy/README.md#the-operators-endpoints, decision 0065).
  if (config.env === 'production' && !management)
    app.log.warn(
      'health and metrics answer on the main port: set MANAGEMENT_PORT and keep that port private (deploy/README.md#the-operators-endpoints)',
    );
  if (config.seedDemoData)
    app.log.info('Demo customers: demo.{nl,at,fr,de,it,es,hu,dk}@example.com, password Demo-2026!');
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
