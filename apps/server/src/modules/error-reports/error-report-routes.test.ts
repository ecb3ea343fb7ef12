import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { apiPaths, appPaths } from '@roadpass/contracts';
import { loadConfig, parseSentryDsn } from '../../config.js';
import { createTestApp, testConfig, type TestApp } from '../../testing/test-app.js';
import { runtimeConfigOf } from '../runtime-config/runtime-config-routes.js';
import { ERROR_REPORT_MAX_BYTES } from './error-report-routes.js';

const EVENT_ID = '0123456789abcdef0123456789abcdef';
const OWN_DSN = 'http://roadpass@localhost:8080/1';

function envelope(
  eventId = EVENT_ID,
  dsn: string = OWN_DSN,
  padding = 0,
  message = 'Boom in the loyalty page',
): string {
  const event = JSON.stringify({
    event_id: eventId,
    message,
    extra: 'x'.repeat(padding),
  });
  return [
    JSON.stringify({ event_id: eventId, dsn, sent_at: new Date().toISOString() }),
    JSON.stringify({ type: 'event', length: Buffer.byteLength(event) }),
    event,
  ].join('\n');
}

const post = (
  t: TestApp,
  payload: string,
  headers: Record<string, string> = { 'content-type': 'text/plain;charset=UTF-8' },
) => t.app.inject({ method: 'POST', url: apiPaths.errorReportEnvelope, headers, payload });

const count = async (t: TestApp) =>
  Number(
    (
      await t.db
        .selectFrom('error_reports')
        .select((e) => e.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

describe('error reporting tunnel', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ errorReportsPerMinute: 0 });
  });
  afterAll(() => t.close());

  it('stores an envelope sent as the browser SDK sends it (text/plain or no type, no token) and answers its event id', async () => {
    const res = await post(t, envelope());
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ id: EVENT_ID });
    const bytes = await t.app.inject({
      method: 'POST',
      url: apiPaths.errorReportEnvelope,
      payload: Buffer.from(envelope()),
    });
    expect(bytes.statusCode).toBe(200);
    const rows = await t.db
      .selectFrom('error_reports')
      .selectAll()
      .where('event_id', '=', EVENT_ID)
      .execute();
    expect(rows).toHaveLength(2);
    expect(rows[0]!.item_types).toBe('event');
    expect(rows[0]!.envelope).toContain('Boom in the loyalty page');
    expect(rows[0]!.forward_status).toBeNull();
  });

  it('stores a feedback envelope ("Report a Bug") like an error report, readable on the dev page', async () => {
    const feedbackId = 'abcdefabcdefabcdefabcdefabcdef12';
    // As @sentry/browser 10 sends captureFeedback through the tunnel: one item of type feedback, no length.
    const item = JSON.stringify({
      event_id: feedbackId,
      type: 'feedback',
      level: 'info',
      contexts: {
        feedback: {
          message: 'The points <b>do not</b> add up',
          name: 'Erika Muster',
          contact_email: 'erika@example.com',
          source: 'widget',
          url: 'http://localhost:8080/customer/loyalty-ui/status',
        },
      },
    });
    const payload = [
      JSON.stringify({ event_id: feedbackId, dsn: OWN_DSN, sent_at: new Date().toISOString() }),
      JSON.stringify({ type: 'feedback' }),
      item,
    ].join('\n');
    const res = await post(t, payload);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ id: feedbackId });
    const row = await t.db
      .selectFrom('error_reports')
      .selectAll()
      .where('event_id', '=', feedbackId)
      .executeTakeFirstOrThrow();
    expect(row.item_types).toBe('feedback');
    expect(JSON.parse(row.envelope.split('\n')[2]!)).toMatchObject({
      contexts: {
        feedback: { message: 'The points <b>do not</b> add up', contact_email: 'erika@example.com' },
      },
    });
    const page = (await t.app.inject({ url: appPaths.devErrorReports })).body;
    expect(page).toContain(`feedback · `);
    expect(page).toContain('The points &lt;b&gt;do not&lt;/b&gt; add up');
  });

  it('shows the stored reports on the dev page, escaped', async () => {
    expect(
      (await post(t, envelope('fedcba9876543210fedcba9876543210', OWN_DSN, 0, '<script>Boom</script>')))
        .statusCode,
    ).toBe(200);
    const page = await t.app.inject({ url: appPaths.devErrorReports });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.body).toContain('Event id: fedcba9876543210fedcba9876543210');
    expect(page.body).toContain('&lt;script&gt;Boom&lt;/script&gt;');
    expect(page.body).not.toContain('<script>');
  });

  it('refuses what is not an envelope, or one for another project, with 400 and stores nothing', async () => {
    const before = await count(t);
    for (const payload of [
      '',
      'not json',
      '{"event_id":"x"}',
      '[1]\n{"type":"event"}\n{}',
      envelope(EVENT_ID, 'https://key@sentry.example/9'),
    ]) {
      const res = await post(t, payload);
      expect(res.statusCode, payload).toBe(400);
      expect(res.json()).toMatchObject({
        status: 400,
        code: 'validation_failed',
        violations: [expect.objectContaining({ field: expect.any(String) })],
      });
    }
    expect(await count(t)).toBe(before);
  });

  it(`refuses an envelope over ${ERROR_REPORT_MAX_BYTES / 1024} kB with 413 and stores nothing`, async () => {
    const before = await count(t);
    const res = await post(t, envelope(EVENT_ID, OWN_DSN, ERROR_REPORT_MAX_BYTES));
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({ status: 413 });
    expect(await count(t)).toBe(before);
    // Up to the limit is fine (the general body limit of 64 kB does not apply here).
    expect((await post(t, envelope(EVENT_ID, OWN_DSN, 100 * 1024))).statusCode).toBe(200);
  });

  it('needs no anti-forgery header even with a bearer-less browser, and is in the API document', async () => {
    const doc = t.app.swagger() as { paths: Record<string, Record<string, { security?: unknown }>> };
    expect(doc.paths[apiPaths.errorReportEnvelope]?.post).toBeDefined();
    expect(doc.paths[apiPaths.errorReportEnvelope]?.post?.security).toBeUndefined();
  });
});

describe('error reporting tunnel: rate limit', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ errorReportsPerMinute: 3 });
  });
  afterAll(() => t.close());

  it('answers 429 with Retry-After past the budget per address, and stores only what was within it', async () => {
    const statuses = [];
    for (let i = 0; i < 5; i++) statuses.push((await post(t, envelope())).statusCode);
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
    const last = await post(t, envelope());
    expect(last.headers['retry-after']).toMatch(/^\d+$/);
    expect(last.json()).toMatchObject({ status: 429, code: 'too_many_requests' });
    expect(await count(t)).toBe(3);
  });
});

describe('error reporting tunnel: forwarding to a Sentry-protocol receiver', () => {
  let receiver: Server;
  const received: { url: string; headers: IncomingHttpHeaders; body: string }[] = [];
  let t: TestApp | undefined;
  beforeAll(async () => {
    receiver = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        received.push({
          url: req.url ?? '',
          headers: req.headers,
          body: Buffer.concat(chunks).toString('utf8'),
        });
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  });
  afterEach(() => t?.close());
  afterAll(() => new Promise((resolve) => receiver.close(resolve)));

  it('forwards a stored envelope with the upstream DSN and records the receiver’s answer', async () => {
    const port = (receiver.address() as AddressInfo).port;
    const upstream = parseSentryDsn(`http://upkey@127.0.0.1:${port}/42`);
    if (typeof upstream === 'string') throw new Error(upstream);
    t = await createTestApp({ errorReportingForwardDsn: upstream });
    expect((await post(t, envelope())).statusCode).toBe(200);
    await expect
      .poll(
        async () =>
          (await t!.db.selectFrom('error_reports').select('forward_status').executeTakeFirst())
            ?.forward_status,
      )
      .toBe('200');
    expect(received).toHaveLength(1);
    expect(received[0]!.url).toBe('/api/42/envelope/');
    expect(received[0]!.headers['x-sentry-auth']).toContain('sentry_key=upkey');
    const [header, itemHeader, item] = received[0]!.body.split('\n');
    expect(JSON.parse(header!)).toMatchObject({
      event_id: EVENT_ID,
      dsn: `http://upkey@127.0.0.1:${port}/42`,
    });
    expect(JSON.parse(itemHeader!)).toMatchObject({ type: 'event' });
    expect(item).toContain('Boom in the loyalty page');
  });
});

describe('error reporting configuration', () => {
  it('takes a Sentry DSN apart and refuses what is not one, naming the variable', () => {
    expect(parseSentryDsn('https://abc@o1.ingest.example.io/sub/77')).toEqual({
      dsn: 'https://abc@o1.ingest.example.io/sub/77',
      envelopeUrl: 'https://o1.ingest.example.io/sub/api/77/envelope/',
      publicKey: 'abc',
    });
    expect(() =>
      loadConfig({ NODE_ENV: 'test', ERROR_REPORTING_FORWARD_DSN: 'https://sentry.example/1' }),
    ).toThrow(/ERROR_REPORTING_FORWARD_DSN must name the project's public key/);
    expect(() =>
      loadConfig({ NODE_ENV: 'test', ERROR_REPORTING_FORWARD_DSN: 'ftp://k@sentry.example/1' }),
    ).toThrow(/ERROR_REPORTING_FORWARD_DSN must use http: or https:/);
    expect(() => loadConfig({ NODE_ENV: 'test', ERROR_REPORTS_PER_MINUTE: '-1' })).toThrow(
      /ERROR_REPORTS_PER_MINUTE/,
    );
    expect(
      loadConfig({ NODE_ENV: 'test', PUBLIC_URL: 'https://my.roadpass.example' }).errorReportingDsn,
    ).toBe('https://roadpass@my.roadpass.example/1');
  });

  it('gives the feedback form its fields through /config.json: name and e-mail shown and optional by default', () => {
    expect(loadConfig({ NODE_ENV: 'test' }).feedback).toEqual({
      showName: true,
      showEmail: true,
      isNameRequired: false,
      isEmailRequired: false,
    });
    expect(() =>
      loadConfig({ NODE_ENV: 'test', FEEDBACK_SHOW_EMAIL: 'false', FEEDBACK_EMAIL_REQUIRED: 'true' }),
    ).toThrow(/FEEDBACK_EMAIL_REQUIRED needs FEEDBACK_SHOW_EMAIL/);
    expect(() => loadConfig({ NODE_ENV: 'test', FEEDBACK_SHOW_NAME: 'maybe' })).toThrow(
      /FEEDBACK_SHOW_NAME must be true or false/,
    );
    const feedback = loadConfig({
      NODE_ENV: 'test',
      FEEDBACK_SHOW_NAME: 'false',
      FEEDBACK_NAME_REQUIRED: 'false',
      FEEDBACK_EMAIL_REQUIRED: 'true',
    }).feedback;
    expect(runtimeConfigOf(testConfig({ feedback })).feedback).toEqual({
      showName: false,
      showEmail: true,
      isNameRequired: false,
      isEmailRequired: true,
    });
  });
});
