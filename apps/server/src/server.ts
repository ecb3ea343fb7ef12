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
  const close = async (signal: string) => {
    app.log.info({ signal }, 'shutting down');
    await app.close();
    lock?.release();
    process.exit(0);
  };
  process.once('SIGINT', () => void close('SIGINT'));
  process.once('SIGTERM', () => void close('SIGTERM'));
  await app.listen({ port: config.port, host: config.host });
  app.log.info(`Roadpass is serving on ${config.publicUrl}`);
  if (config.seedDemoData)
    app.log.info('Demo customers: demo.{nl,at,fr,de,it,es,hu,dk}@example.com, password Demo-2026!');
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
