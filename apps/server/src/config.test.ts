import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

describe('loadConfig', () => {
  it('serves on 8080 with embedded PGlite and demo data by default', () => {
    const config = loadConfig({});
    expect(config.port).toBe(8080);
    expect(config.publicUrl).toBe('http://localhost:8080');
    expect(config.databaseUrl).toBeUndefined();
    expect(config.dataDir).toMatch(/data$/);
    expect(config.seedDemoData).toBe(true);
    expect(config.accessTokenAudience).toBe('urn:roadpass:customer-api');
  });

  it('lists every bad value at once', () => {
    let error: unknown;
    try {
      loadConfig({
        PORT: 'eighty',
        DATABASE_URL: 'mysql://x',
        NODE_ENV: 'staging',
        ACCESS_TOKEN_TTL_SECONDS: '1',
      });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const { problems } = error as ConfigError;
    expect(problems).toHaveLength(4);
    expect(problems.join('\n')).toMatch(/PORT must be a whole number/);
    expect(problems.join('\n')).toMatch(/DATABASE_URL must use postgres: or postgresql:/);
    expect(problems.join('\n')).toMatch(/NODE_ENV must be development, test or production/);
    expect(problems.join('\n')).toMatch(/ACCESS_TOKEN_TTL_SECONDS must be a whole number from 5/);
  });

  it('refuses fault injection and demo data in production', () => {
    expect(() =>
      loadConfig({ NODE_ENV: 'production', FAULT_INJECTION: 'true', SEED_DEMO_DATA: 'true' }),
    ).toThrow(
      /FAULT_INJECTION is only allowed with NODE_ENV=test[\s\S]*SEED_DEMO_DATA must not be set in production/,
    );
  });

  it('trusts an external Keycloak realm by configuration', () => {
    const config = loadConfig({ OIDC_ISSUER: 'https://sso.example.com/auth/realms/customer/' });
    expect(config.externalIssuer).toBe('https://sso.example.com/auth/realms/customer');
    expect(config.accessTokenAudience).toBeUndefined();
  });
});
