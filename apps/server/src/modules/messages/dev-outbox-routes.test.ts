import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appPaths, type DevOutboxResponse } from '@roadpass/contracts';
import { createTestApp, type TestApp } from '../../testing/test-app.js';
import { createMessageSender } from './message-sender.js';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
  const sender = createMessageSender({ db: t.db, log: t.app.log, from: 'no-reply@roadpass.example' });
  await sender.sendEmail({
    to: 'demo.de@example.com',
    subject: 'Confirm <your> address',
    text: 'Open http://localhost:8080/email/confirm/abc?x=1&y=2 within 24 hours.',
    kind: 'email-confirmation',
  });
  await sender.sendSms({
    to: '+4915112345678',
    text: 'Your Roadpass PIN: 482913. Valid 10 minutes.',
    kind: 'mobile-pin',
  });
});
afterAll(() => t.close());

describe('GET /dev/outbox', () => {
  it('answers JSON when asked, newest first, with links and the PIN picked out', async () => {
    for (const request of [
      { url: `${appPaths.devOutbox}?format=json` },
      { url: appPaths.devOutbox, headers: { accept: 'application/json' } },
    ]) {
      const res = await t.app.inject(request);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/application\/json/);
      expect(res.headers['cache-control']).toBe('no-store');
      const { messages } = res.json<DevOutboxResponse>();
      expect(messages[0]).toMatchObject({ channel: 'sms', kind: 'mobile-pin', pin: '482913', links: [] });
      expect(messages[1]).toMatchObject({
        channel: 'email',
        to: 'demo.de@example.com',
        subject: 'Confirm <your> address',
        links: ['http://localhost:8080/email/confirm/abc?x=1&y=2'],
        pin: null,
      });
    }
  });

  it('shows a readable page with clickable links, escaped text and its own strict CSP', async () => {
    const res = await t.app.inject({ url: appPaths.devOutbox, headers: { accept: 'text/html' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/html/);
    expect(res.body).toContain('<h1>Outbox</h1>');
    expect(res.body).toContain(
      '<a href="http://localhost:8080/email/confirm/abc?x=1&#38;y=2">http://localhost:8080/email/confirm/abc?x=1&#38;y=2</a>',
    );
    expect(res.body).toContain('Confirm &#60;your&#62; address');
    expect(res.body).not.toContain('<your>');
    expect(res.body).toMatch(/<span class="pin"[^>]*>482913<\/span>/);
    expect(res.body.indexOf('482913')).toBeLessThan(res.body.indexOf('email/confirm'));
    expect(res.headers['content-security-policy']).toMatch(/^default-src 'none'; style-src 'sha256-/);
    expect(res.headers['content-security-policy']).not.toMatch(/script-src|unsafe/);
  });

  it('does not exist in production', async () => {
    const production = await createTestApp({ env: 'production', seedDemoData: false });
    try {
      for (const url of [appPaths.devOutbox, `${appPaths.devOutbox}?format=json`]) {
        const res = await production.app.inject({ url, headers: { accept: 'application/json' } });
        expect(res.statusCode, url).toBe(404);
        expect(res.body).not.toContain('Outbox');
      }
    } finally {
      await production.close();
    }
  });
});
