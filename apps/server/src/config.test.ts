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

  it('sizes the PostgreSQL pool from DATABASE_POOL_SIZE (20 by default) and refuses nonsense', () => {
    expect(loadConfig({}).databasePoolSize).toBe(20);
    expect(loadConfig({ DATABASE_POOL_SIZE: '50' }).databasePoolSize).toBe(50);
    expect(() => loadConfig({ DATABASE_POOL_SIZE: '0' })).toThrow(/DATABASE_POOL_SIZE/);
    expect(() => loadConfig({ DATABASE_POOL_SIZE: 'many' })).toThrow(/DATABASE_POOL_SIZE/);
  });

  it('lets event batches take a third of the time with 8 waiting by default; LOYALTY_BATCH_* set both within bounds', () => {
    expect(loadConfig({})).toMatchObject({ loyaltyBatchSharePercent: 33, loyaltyBatchQueue: 8 });
    expect(loadConfig({ LOYALTY_BATCH_SHARE_PERCENT: '100', LOYALTY_BATCH_QUEUE: '0' })).toMatchObject({
      loyaltyBatchSharePercent: 100,
      loyaltyBatchQueue: 0,
    });
    for (const share of ['0', '101', 'half']) {
      expect(() => loadConfig({ LOYALTY_BATCH_SHARE_PERCENT: share })).toThrow(/LOYALTY_BATCH_SHARE_PERCENT/);
    }
    expect(() => loadConfig({ LOYALTY_BATCH_QUEUE: '-1' })).toThrow(/LOYALTY_BATCH_QUEUE/);
  });

  it('logs JSON for machines and short lines for a person at a development terminal; LOG_FORMAT decides', () => {
    const terminal = process.stdout.isTTY;
    try {
      process.stdout.isTTY = true;
      expect(loadConfig({ NODE_ENV: 'development' }).logFormat).toBe('pretty');
      expect(loadConfig({ NODE_ENV: 'production' }).logFormat).toBe('json');
      expect(loadConfig({ NODE_ENV: 'development', LOG_FORMAT: 'json' }).logFormat).toBe('json');
      process.stdout.isTTY = false;
      expect(loadConfig({ NODE_ENV: 'development' }).logFormat).toBe('json');
      expect(loadConfig({ NODE_ENV: 'production', LOG_FORMAT: 'pretty' }).logFormat).toBe('pretty');
    } finally {
      process.stdout.isTTY = terminal;
    }
    expect(() => loadConfig({ LOG_FORMAT: 'xml' })).toThrow(/LOG_FORMAT must be pretty or json/);
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

  it('configures the rental system’s service client and the loyalty expiry timer', () => {
    const config = loadConfig({});
    expect(config.loyaltyClientId).toBe('rental-system');
    expect(config.loyaltyClientSecret).toBeUndefined();
    expect(config.loyaltyAudience).toBe('http://localhost:8080/api/internal');
    expect(config.loyaltyExpiryIntervalSeconds).toBe(3600);
    expect(loadConfig({ NODE_ENV: 'test' }).loyaltyExpiryIntervalSeconds).toBe(0);
    const custom = loadConfig({
      LOYALTY_CLIENT_ID: 'rentals',
      LOYALTY_CLIENT_SECRET: 's'.repeat(32),
      LOYALTY_AUDIENCE: 'urn:roadpass:internal-api',
      LOYALTY_EXPIRY_INTERVAL_SECONDS: '600',
    });
    expect(custom).toMatchObject({
      loyaltyClientId: 'rentals',
      loyaltyClientSecret: 's'.repeat(32),
      loyaltyAudience: 'urn:roadpass:internal-api',
      loyaltyExpiryIntervalSeconds: 600,
    });
  });

  it('names every bad loyalty setting', () => {
    expect(() =>
      loadConfig({
        LOYALTY_CLIENT_SECRET: 'short',
        LOYALTY_CLIENT_ID: 'portal-client',
        LOYALTY_AUDIENCE: 'not a url',
        LOYALTY_EXPIRY_INTERVAL_SECONDS: '-1',
      }),
    ).toThrow(
      /LOYALTY_CLIENT_ID must differ from OIDC_CLIENT_ID[\s\S]*LOYALTY_CLIENT_SECRET must be at least 32 characters long \(got 5\)[\s\S]*LOYALTY_AUDIENCE must be a URL[\s\S]*LOYALTY_EXPIRY_INTERVAL_SECONDS must be a whole number from 0/,
    );
  });

  it('sends e-mail through SMTP only when SMTP_URL is set, and never repeats its password in an error', () => {
    expect(loadConfig({}).smtpUrl).toBeUndefined();
    expect(loadConfig({ SMTP_URL: 'smtps://mailer:s3cret@mail.example:465' }).smtpUrl).toBe(
      'smtps://mailer:s3cret@mail.example:465',
    );
    expect(loadConfig({ SMTP_URL: 'smtp://mail.example:587' }).smtpUrl).toBe('smtp://mail.example:587');
    for (const bad of ['https://mailer:s3cret@mail.example', 'mailer:s3cret at mail.example']) {
      let error: unknown;
      try {
        loadConfig({ SMTP_URL: bad });
      } catch (caught) {
        error = caught;
      }
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).message).toMatch(/SMTP_URL must be a URL like smtp:/);
      expect((error as ConfigError).message).not.toContain('s3cret');
    }
  });

  it('takes the sender from MAIL_FROM and refuses one that is not an address or spans lines', () => {
    expect(loadConfig({}).mailFrom).toBe('Roadpass <no-reply@roadpass.example>');
    expect(loadConfig({ MAIL_FROM: 'service@roadpass.example' }).mailFrom).toBe('service@roadpass.example');
    expect(loadConfig({ MAIL_FROM: 'Roadpass Service <service@roadpass.example>' }).mailFrom).toBe(
      'Roadpass Service <service@roadpass.example>',
    );
    expect(() => loadConfig({ MAIL_FROM: 'Roadpass' })).toThrow(/MAIL_FROM must be an e-mail address/);
    expect(() => loadConfig({ MAIL_FROM: 'a@b.example\r\nBcc: x@y.example' })).toThrow(/MAIL_FROM/);
  });

  it('keeps outbox messages 30 days and purges hourly (never in test) unless configured', () => {
    expect(loadConfig({})).toMatchObject({ outboxRetentionDays: 30, messagesPurgeIntervalSeconds: 3600 });
    expect(loadConfig({ NODE_ENV: 'test' }).messagesPurgeIntervalSeconds).toBe(0);
    expect(loadConfig({ OUTBOX_RETENTION_DAYS: '7', MESSAGES_PURGE_INTERVAL_SECONDS: '600' })).toMatchObject({
      outboxRetentionDays: 7,
      messagesPurgeIntervalSeconds: 600,
    });
    expect(() => loadConfig({ OUTBOX_RETENTION_DAYS: '0' })).toThrow(/OUTBOX_RETENTION_DAYS/);
    expect(() => loadConfig({ MESSAGES_PURGE_INTERVAL_SECONDS: 'hourly' })).toThrow(
      /MESSAGES_PURGE_INTERVAL_SECONDS/,
    );
  });
});
