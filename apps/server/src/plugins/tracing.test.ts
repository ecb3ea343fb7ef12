import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { apiPaths } from '@roadpass/contracts';
import { createTestApp } from '../testing/test-app.js';
import { browse, openLoginPage, signIn } from '../testing/sign-in.js';
import { startExternalRealm } from '../testing/external-realm.js';
import { smtpServer } from '../testing/smtp-server.js';

/** An OTLP/HTTP span as the JSON encoding sends it. */
interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes: { key: string; value: { stringValue?: string; intValue?: string | number } }[];
}
const attribute = (span: OtlpSpan, key: string) => {
  const value = span.attributes.find((a) => a.key === key)?.value;
  return value?.stringValue ?? (value?.intValue === undefined ? undefined : Number(value.intValue));
};

// Issue 21 §1: with OTEL_EXPORTER_OTLP_ENDPOINT the server sends traces, carrying the request id, with
// HTTP and database spans. The receiver here is a real OTLP/HTTP endpoint (POST /v1/traces).
describe('OpenTelemetry traces', { timeout: 60_000 }, () => {
  let receiver: Server;
  let endpoint: string;
  const posts: { path: string; contentType: string | undefined; body: unknown }[] = [];
  beforeAll(async () => {
    receiver = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        posts.push({
          path: `${req.method} ${req.url}`,
          contentType: req.headers['content-type'],
          body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown,
        });
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    endpoint = `http://127.0.0.1:${(receiver.address() as { port: number }).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => receiver.close(() => resolve())));

  const spans = () =>
    posts.flatMap((p) =>
      (p.body as { resourceSpans: { scopeSpans: { spans: OtlpSpan[] }[] }[] }).resourceSpans.flatMap((r) =>
        r.scopeSpans.flatMap((s) => s.spans),
      ),
    );

  it('sends a span per request with its request id and route, and its database queries inside it', async () => {
    const t = await createTestApp({ otelEndpoint: endpoint });
    const requestId = 'trace-test-0123456789';
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    try {
      const { accessToken } = await signIn(t.app, { email: 'demo.it@example.com', password: 'Demo-2026!' });
      const res = await t.app.inject({
        url: apiPaths.personalData,
        headers: {
          authorization: `Bearer ${accessToken}`,
          'x-request-id': requestId,
          traceparent: `00-${traceId}-00f067aa0ba902b7-01`,
        },
      });
      expect(res.statusCode).toBe(200);
      expect(res.headers['x-request-id']).toBe(requestId);
    } finally {
      // Closing flushes the spans still in the batch.
      await t.close();
    }
    expect(posts.every((p) => p.path === 'POST /v1/traces' && p.contentType === 'application/json')).toBe(
      true,
    );
    const all = spans();
    const server = all.find((s) => attribute(s, 'roadpass.request_id') === requestId);
    expect(server, 'a span with the request id').toBeDefined();
    expect(server).toMatchObject({
      name: 'GET /api/customer/cuda/customer/personaldata/own',
      kind: 2, // SERVER
      traceId, // continues the caller's trace
      parentSpanId: '00f067aa0ba902b7',
    });
    expect(attribute(server!, 'http.response.status_code')).toBe(200);
    expect(attribute(server!, 'http.route')).toBe(apiPaths.personalData);
    const queries = all.filter((s) => s.parentSpanId === server!.spanId);
    expect(queries.length, 'database spans inside the request').toBeGreaterThan(0);
    for (const q of queries) {
      expect(q.kind).toBe(3); // CLIENT
      expect(q.traceId).toBe(traceId);
      expect(q.name).toBe(String(attribute(q, 'db.query.text')).split(' ')[0]!.toUpperCase());
    }
    expect(queries.map((q) => q.name)).toContain('SELECT');
    // Every other request of the sign-in has its own server span, each with its own request id.
    const servers = all.filter((s) => s.kind === 2);
    expect(servers.length).toBeGreaterThan(3);
    expect(new Set(servers.map((s) => attribute(s, 'roadpass.request_id'))).size).toBe(servers.length);
  });

  it('sends a span of its own for each round of a background job, with its queries inside', async () => {
    posts.length = 0;
    // The loyalty expiry timer every second (off in tests by default): rounds of a background job.
    const t = await createTestApp({ otelEndpoint: endpoint, loyaltyExpiryIntervalSeconds: 1 });
    try {
      await new Promise((resolve) => setTimeout(resolve, 1_500));
    } finally {
      await t.close();
    }
    const all = spans();
    const job = all.find((s) => s.name === 'job loyalty-expiry');
    expect(job, 'a span for the expiry round').toBeDefined();
    expect(job!.kind).toBe(1); // INTERNAL
    expect(job!.parentSpanId ?? '').toBe(''); // a trace of its own
    expect(attribute(job!, 'roadpass.job')).toBe('loyalty-expiry');
    const queries = all.filter((s) => s.parentSpanId === job!.spanId);
    expect(queries.length, 'the finder of customers with something due').toBeGreaterThan(0);
    expect(queries.every((q) => q.kind === 3 && q.traceId === job!.traceId)).toBe(true);
  });

  it('sends a client span for each e-mail handed to the SMTP server, in the trace of the request that sent it', async () => {
    posts.length = 0;
    const smtp = await smtpServer();
    const t = await createTestApp({ otelEndpoint: endpoint, smtpUrl: smtp.url });
    try {
      // "Forgot your password?" on the sign-in page: the link goes out after the page answered.
      const { jar, page } = await openLoginPage(t.app, { uiLocales: 'en' });
      const forgot = /href="([^"]*forgot-password[^"]*)"/.exec(page.body)![1]!.replace(/&amp;/g, '&');
      expect((await browse(t.app, jar, forgot, { email: 'demo.nl@example.com' })).statusCode).toBe(200);
      await vi.waitFor(() => expect(smtp.received.join('\n')).toContain('To: demo.nl@example.com'), {
        timeout: 10_000,
        interval: 100,
      });
    } finally {
      await t.close();
      smtp.server.close();
    }
    const all = spans();
    const sends = all.filter((s) => s.name === 'smtp send');
    expect(sends.length, 'a span per e-mail').toBe(smtp.received.length);
    for (const send of sends) {
      expect(send.kind).toBe(3); // CLIENT
      expect(attribute(send, 'server.address')).toBe('127.0.0.1');
      expect(attribute(send, 'server.port')).toBe(Number(new URL(smtp.url).port));
    }
    // The reset link's: inside the trace of the request that asked for it.
    const requestOf = (send: OtlpSpan) => all.find((s) => s.spanId === send.parentSpanId && s.kind === 2);
    const reset = sends.find((send) =>
      String(attribute(requestOf(send) ?? send, 'http.route')).includes('forgot'),
    );
    expect(reset, 'the reset e-mail inside its request').toBeDefined();
    expect(requestOf(reset!)!.traceId).toBe(reset!.traceId);
  });

  it("sends a client span for fetching an external realm's keys, inside the request that needed them", async () => {
    posts.length = 0;
    const { issuer, service, realmUrl: realm, close } = await startExternalRealm({ otelEndpoint: endpoint });
    try {
      const { accessToken } = await signIn(issuer.app, {
        email: 'demo.dk@example.com',
        password: 'Demo-2026!',
      });
      const res = await service.app.inject({
        url: apiPaths.loginStatus,
        headers: { authorization: `Bearer ${accessToken}` },
      });
      expect(res.statusCode).toBe(200);
    } finally {
      await close();
    }
    const all = spans();
    const keys = all.find(
      (s) => s.kind === 3 && attribute(s, 'url.full') === `${realm}/protocol/openid-connect/certs`,
    );
    expect(keys, 'a span for the keys').toBeDefined();
    expect(keys!.name).toBe('GET');
    const parent = all.find((s) => s.spanId === keys!.parentSpanId);
    expect(parent).toMatchObject({ kind: 2, name: `GET ${apiPaths.loginStatus}` });
  });
});
