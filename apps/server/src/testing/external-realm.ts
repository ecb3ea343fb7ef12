import type { AppConfig } from '../config.js';
import { freePort } from './server-process.js';
import { createTestApp, type TestApp } from './test-app.js';

/** A realm of its own on a port, and a service that trusts it (see startExternalRealm). */
export interface ExternalRealm {
  /** The realm: a real provider listening on a port, as Keycloak would. */
  issuer: TestApp;
  /** The service that trusts the realm by configuration alone, on the same database. */
  service: TestApp;
  /** The realm's issuer URL (`…/auth/realms/customer`). */
  realmUrl: string;
  close(): Promise<void>;
}

/**
 * An external realm played by a real provider listening on a port, whose keys the service fetches
 * over HTTP from {realm}/protocol/openid-connect/certs, and a service with no provider of its own
 * that trusts it by configuration (`externalIssuer`). `serviceConfig` adds to the service's settings.
 */
export async function startExternalRealm(serviceConfig: Partial<AppConfig> = {}): Promise<ExternalRealm> {
  const port = await freePort();
  // The realm's tokens name it as their issuer: it listens where its public address says.
  const issuer = await createTestApp({ publicUrl: `http://127.0.0.1:${port}` });
  await issuer.app.listen({ port, host: '127.0.0.1' });
  const realmUrl = `http://127.0.0.1:${port}/auth/realms/customer`;
  const service = await createTestApp(
    { externalIssuer: realmUrl, accessTokenAudience: 'urn:roadpass:customer-api', ...serviceConfig },
    issuer.db,
  );
  return {
    issuer,
    service,
    realmUrl,
    async close() {
      // The service shares the realm's database: the realm's close drops it.
      await service.app.close();
      await issuer.close();
    },
  };
}
