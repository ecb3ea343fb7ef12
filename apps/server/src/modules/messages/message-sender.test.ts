import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { smtpServer } from '../../testing/smtp-server.js';
import { createTestDatabase, type TestDatabase } from '../../testing/test-database.js';
import { migrateToLatest } from '../../db/migrate.js';
import { createMessageSender } from './message-sender.js';
import { createSmtpTransport } from './smtp-transport.js';

let database: TestDatabase;
const logLines: string[] = [];
const log = pino({ level: 'info' }, { write: (line: string) => logLines.push(line) });

beforeAll(async () => {
  database = await createTestDatabase();
  await migrateToLatest(database.db);
});
afterAll(() => database.drop());

const outboxRow = (id: string) =>
  database.db.selectFrom('outbox').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

describe('message sender', () => {
  it('keeps every e-mail and SMS in the outbox when no transport is configured', async () => {
    const sender = createMessageSender({
      db: database.db,
      log,
      from: 'Roadpass <no-reply@roadpass.example>',
    });
    const mailId = await sender.sendEmail({
      to: 'anna@example.com',
      subject: 'Hello',
      text: 'Open https://roadpass.example/x',
      kind: 'newsletter',
    });
    const smsId = await sender.sendSms({
      to: '+4915112345678',
      text: 'Your PIN: 123456',
      kind: 'mobile-pin',
    });
    expect(await outboxRow(mailId)).toMatchObject({
      channel: 'email',
      kind: 'newsletter',
      recipient: 'anna@example.com',
      subject: 'Hello',
      body: 'Open https://roadpass.example/x',
      delivered_at: null,
      delivery_error: null,
    });
    expect(await outboxRow(smsId)).toMatchObject({ channel: 'sms', subject: null, body: 'Your PIN: 123456' });
  });

  it('sends e-mail through a real SMTP conversation and marks it delivered', async () => {
    const smtp = await smtpServer();
    const transport = createSmtpTransport(smtp.url);
    try {
      const sender = createMessageSender({
        db: database.db,
        log,
        from: 'Roadpass <no-reply@roadpass.example>',
        mail: transport,
      });
      const id = await sender.sendEmail({
        to: 'bert@example.com',
        subject: 'Bestätigen',
        text: 'Hallo Bert',
        kind: 'email-confirmation',
      });
      expect(smtp.received).toHaveLength(1);
      expect(smtp.received[0]).toMatch(/^To: bert@example.com$/m);
      expect(smtp.received[0]).toMatch(/^From: Roadpass <no-reply@roadpass.example>$/m);
      expect(smtp.received[0]).toContain('Hallo Bert');
      const row = await outboxRow(id);
      expect(row.delivered_at).toBeInstanceOf(Date);
      expect(row.delivery_error).toBeNull();

      // A refused recipient: the caller goes on, the row says why, the log names no text or address.
      logLines.length = 0;
      const refused = await sender.sendEmail({
        to: 'refused@example.com',
        subject: 'PIN',
        text: 'secret-link-abc',
        kind: 'email-confirmation',
      });
      const failed = await outboxRow(refused);
      expect(failed.delivered_at).toBeNull();
      expect(failed.delivery_error).toMatch(/550|mailbox/);
      expect(logLines.join('\n')).toMatch(/message not delivered/);
      expect(logLines.join('\n')).not.toMatch(/secret-link-abc|refused@example.com/);
    } finally {
      transport.close();
      smtp.server.close();
    }
  });

  it('never logs the text of a message (PINs, links)', async () => {
    logLines.length = 0;
    const sender = createMessageSender({ db: database.db, log, from: 'no-reply@roadpass.example' });
    await sender.sendSms({ to: '+4915112345678', text: 'Your PIN: 987654', kind: 'mobile-pin' });
    expect(logLines.length).toBeGreaterThan(0);
    expect(logLines.join('\n')).not.toContain('987654');
  });
});
