import { readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { crc32, deflateSync } from 'node:zlib';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { apiPaths, appPaths } from '@roadpass/contracts';
import { loadConfig, parseSentryDsn } from '../../config.js';
import { createTestApp, testConfig, type TestApp } from '../../testing/test-app.js';
import { runtimeConfigOf } from '../runtime-config/index.js';
import { readEnvelope, withHeader } from './envelope.js';
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

/** A real PNG picture (solid colour), as a screenshot file would hold it: full of 0x00 bytes. */
function pngImage(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB
  const row = Buffer.concat([Buffer.from([0]), Buffer.alloc(width * 3, 0x20)]);
  const pixels = deflateSync(Buffer.concat(Array.from({ length: height }, () => row)));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', pixels),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const FEEDBACK_ID = '5c2eef5c2eef5c2eef5c2eef5c2eef00';

/**
 * "Report a Bug" with a screenshot, byte for byte as @sentry/browser 10 sends
 * `captureFeedback(params, { attachments: [{ filename, data, contentType }] })` (@sentry/core's
 * serializeEnvelope): the feedback item, then an attachment item whose header gives the payload's
 * length in bytes, then the picture's bytes, no newline after them.
 */
function feedbackWithScreenshot(
  picture: Buffer,
  filename = 'screenshot.png',
  contentType = 'image/png',
): Buffer {
  const feedback = JSON.stringify({
    event_id: FEEDBACK_ID,
    type: 'feedback',
    level: 'info',
    contexts: { feedback: { message: 'The points do not add up', source: 'widget' } },
  });
  return Buffer.concat([
    Buffer.from(
      [
        JSON.stringify({ event_id: FEEDBACK_ID, dsn: OWN_DSN, sent_at: new Date().toISOString() }),
        JSON.stringify({ type: 'feedback' }),
        feedback,
        JSON.stringify({
          type: 'attachment',
          length: picture.length,
          filename,
          content_type: contentType,
        }),
        '',
      ].join('\n'),
    ),
    picture,
  ]);
}

const post = (
  t: TestApp,
  payload: string | Buffer,
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

  it('stores a feedback envelope with a screenshot attachment, lists it on the dev page and serves its bytes', async () => {
    const picture = pngImage(64, 48);
    expect(picture.includes(0)).toBe(true);
    // As the SDK's fetch sends a binary envelope: the bytes, no content type.
    const res = await t.app.inject({
      method: 'POST',
      url: apiPaths.errorReportEnvelope,
      payload: feedbackWithScreenshot(picture, 'Bildschirmfoto <1>.png'),
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ id: FEEDBACK_ID });
    const row = await t.db
      .selectFrom('error_reports')
      .selectAll()
      .where('event_id', '=', FEEDBACK_ID)
      .executeTakeFirstOrThrow();
    expect(row.item_types).toBe('feedback,attachment');
    expect(row.size_bytes).toBe(feedbackWithScreenshot(picture, 'Bildschirmfoto <1>.png').length);
    // The feedback item stays readable as sent.
    expect(JSON.parse(row.envelope.split('\n')[2]!)).toMatchObject({
      contexts: { feedback: { message: 'The points do not add up' } },
    });

    const page = (await t.app.inject({ url: appPaths.devErrorReports })).body;
    expect(page).toContain('feedback,attachment · ');
    const href = `${appPaths.devErrorReports}/${row.id}/attachments/0`;
    expect(page).toContain(
      `<a href="${href}">Bildschirmfoto &lt;1&gt;.png</a> · image/png · ${picture.length} bytes`,
    );
    expect(page).toContain(`<img src="${href}" alt="Bildschirmfoto &lt;1&gt;.png"`);
    expect(page).toContain(`[${picture.length} bytes, not shown]`);

    const served = await t.app.inject({ url: href });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.headers['content-disposition']).toBe('inline; filename="Bildschirmfoto__1_.png"');
    expect(served.rawPayload.equals(picture)).toBe(true);
    expect(
      (await t.app.inject({ url: `${appPaths.devErrorReports}/${row.id}/attachments/1` })).statusCode,
    ).toBe(404);
  });

  it('takes "Report a Bug" with a screenshot exactly as @sentry/browser 10 sent it from Chromium (recorded)', async () => {
    // Recorded from the browser test of the screenshot (e2e/tests/consent.spec.ts): a feedback item and
    // a 70-byte PNG as attachment item. Its header names that run's server: ours replaces it.
    const recorded = readFileSync(new URL('fixtures/feedback-with-screenshot.envelope', import.meta.url));
    const summary = readEnvelope(recorded);
    if (typeof summary === 'string') throw new Error(summary);
    expect(summary.header.sdk).toMatchObject({ name: 'sentry.javascript.browser' });
    expect(summary.itemTypes).toEqual(['feedback', 'attachment']);
    const png = summary.items[1]!.payload;
    expect(png.subarray(1, 4).toString()).toBe('PNG');
    const envelope = withHeader(recorded, { ...summary.header, dsn: OWN_DSN });

    const res = await t.app.inject({ method: 'POST', url: apiPaths.errorReportEnvelope, payload: envelope });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ id: summary.eventId });
    const page = (await t.app.inject({ url: appPaths.devErrorReports })).body;
    const listed = /<a href="([^"]+)">bug\.png<\/a> · image\/png · (\d+) bytes/.exec(page);
    expect(listed?.[2]).toBe(String(png.length));
    const served = await t.app.inject({ url: listed![1]! });
    expect(served.rawPayload.equals(png)).toBe(true);
  });

  it('sends an attachment that is not a picture only as a download', async () => {
    const script = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
    const res = await post(t, feedbackWithScreenshot(script, 'x.svg', 'image/svg+xml'));
    expect(res.statusCode).toBe(200);
    const page = (await t.app.inject({ url: appPaths.devErrorReports })).body;
    const id = /#(\d+) feedback,attachment/.exec(page)![1]!;
    expect(page).not.toContain(`<img src="${appPaths.devErrorReports}/${id}/`);
    const served = await t.app.inject({ url: `${appPaths.devErrorReports}/${id}/attachments/0` });
    expect(served.headers['content-type']).toBe('application/octet-stream');
    expect(served.headers['content-disposition']).toBe('attachment; filename="x.svg"');
  });

  it(`refuses feedback whose screenshot makes the envelope larger than ${ERROR_REPORT_MAX_BYTES / 1024} kB: 413 in the API's error shape, nothing stored`, async () => {
    const before = await count(t);
    const tooBig = Buffer.concat([pngImage(8, 8), Buffer.alloc(ERROR_REPORT_MAX_BYTES, 0)]);
    const res = await t.app.inject({
      method: 'POST',
      url: apiPaths.errorReportEnvelope,
      payload: feedbackWithScreenshot(tooBig),
    });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({
      status: 413,
      code: 'payload_too_large',
      message: expect.any(String),
      violations: [expect.objectContaining({ field: 'body', rule: 'maxBytes' })],
    });
    expect(await count(t)).toBe(before);
    // The web app's limit for a screenshot (150 kB, features/feedback) fits with room for the text.
    const largest = Buffer.concat([pngImage(8, 8), Buffer.alloc(150_000 - pngImage(8, 8).length, 0)]);
    expect((await post(t, feedbackWithScreenshot(largest))).statusCode).toBe(200);
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
  const received: { url: string; headers: IncomingHttpHeaders; body: string; bytes: Buffer }[] = [];
  let t: TestApp | undefined;
  beforeAll(async () => {
    receiver = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const bytes = Buffer.concat(chunks);
        received.push({ url: req.url ?? '', headers: req.headers, body: bytes.toString('utf8'), bytes });
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

  it('forwards feedback with a screenshot as received: only the envelope header changes', async () => {
    received.length = 0;
    const port = (receiver.address() as AddressInfo).port;
    const upstream = parseSentryDsn(`http://upkey@127.0.0.1:${port}/42`);
    if (typeof upstream === 'string') throw new Error(upstream);
    t = await createTestApp({ errorReportingForwardDsn: upstream });
    const sent = feedbackWithScreenshot(pngImage(32, 32));
    expect((await post(t, sent)).statusCode).toBe(200);
    await expect.poll(() => received.length).toBe(1);
    const forwarded = received[0]!.bytes;
    const items = (envelope: Buffer) => envelope.subarray(envelope.indexOf(0x0a));
    expect(items(forwarded).equals(items(sent))).toBe(true);
    expect(JSON.parse(forwarded.subarray(0, forwarded.indexOf(0x0a)).toString())).toMatchObject({
      event_id: FEEDBACK_ID,
      dsn: `http://upkey@127.0.0.1:${port}/42`,
    });
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
