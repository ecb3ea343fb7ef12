import type { FastifyBaseLogger } from 'fastify';
import type { MessageKind } from '@roadpass/contracts';
import type { Db } from '../../db/database.js';

/** What an e-mail or SMS is for (contracts: one list for the server and the tests). */
export type { MessageKind };

export interface OutboundEmail {
  to: string;
  subject: string;
  text: string;
  kind: MessageKind;
  customerId?: string | null;
}

export interface OutboundSms {
  to: string;
  text: string;
  kind: MessageKind;
  customerId?: string | null;
}

/** The one way the server sends messages: each is kept in the outbox, then handed to its transport. */
export interface MessageSender {
  /** Resolves with the outbox id once stored (and, with a transport, handed over or failed). */
  sendEmail(message: OutboundEmail): Promise<string>;
  sendSms(message: OutboundSms): Promise<string>;
  /**
   * Stores an e-mail in the outbox through `db`, the caller's transaction, without delivering it: a
   * job that records "sent" in the same transaction (points reminders, decision 0035) then calls
   * `deliverStored` after the commit, so a rolled-back transaction never reaches a mailbox.
   */
  storeEmail(db: Db, message: OutboundEmail): Promise<string>;
  /** Delivers an e-mail `storeEmail` stored (its transaction committed); a no-op without a transport. */
  deliverStored(id: string): Promise<void>;
}

/** Delivers an e-mail (SMTP in production). Throws when the mail server refuses it. */
export interface MailTransport {
  send(message: { from: string; to: string; subject: string; text: string }): Promise<void>;
}

/** Delivers an SMS through a provider; none is connected yet, so SMS stay in the outbox. */
export interface SmsTransport {
  send(message: { to: string; text: string }): Promise<void>;
}

export interface MessageSenderOptions {
  db: Db;
  log: FastifyBaseLogger;
  /** Sender address of every e-mail. */
  from: string;
  mail?: MailTransport | undefined;
  sms?: SmsTransport | undefined;
}

/**
 * Stores every message in `outbox`, then delivers it through the channel's transport if there is one.
 * A failed delivery is recorded on the row (and logged without the text or recipient: they can hold a
 * PIN or a link) and does not fail the caller's request: the customer can ask again.
 * Logs name the message's id, channel and kind only.
 */
export function createMessageSender({ db, log, from, mail, sms }: MessageSenderOptions): MessageSender {
  async function store(
    channel: 'email' | 'sms',
    message: { to: string; subject?: string; text: string; kind: MessageKind; customerId?: string | null },
    executor: Db = db,
  ): Promise<string> {
    const row = await executor
      .insertInto('outbox')
      .values({
        channel,
        kind: message.kind,
        recipient: message.to,
        subject: message.subject ?? null,
        body: message.text,
        customer_id: message.customerId ?? null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  async function deliver(id: string, channel: 'email' | 'sms', kind: MessageKind, send: () => Promise<void>) {
    try {
      await send();
      await db.updateTable('outbox').set({ delivered_at: new Date() }).where('id', '=', id).execute();
      log.info({ outboxId: id, channel, kind }, 'message delivered');
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      await db
        .updateTable('outbox')
        .set({ delivery_error: reason.slice(0, 500) })
        .where('id', '=', id)
        .execute();
      log.warn({ outboxId: id, channel, kind }, 'message not delivered: kept in the outbox');
    }
  }

  return {
    async sendEmail(message) {
      const id = await store('email', message);
      if (mail) {
        await deliver(id, 'email', message.kind, () =>
          mail.send({ from, to: message.to, subject: message.subject, text: message.text }),
        );
      } else log.info({ outboxId: id, channel: 'email', kind: message.kind }, 'message kept in the outbox');
      return id;
    },
    storeEmail: (executor, message) => store('email', message, executor),
    async deliverStored(id) {
      const row = await db
        .selectFrom('outbox')
        .select(['recipient', 'subject', 'body', 'kind', 'delivered_at'])
        .where('id', '=', id)
        .where('channel', '=', 'email')
        .executeTakeFirst();
      if (!row || row.delivered_at) return;
      const kind = row.kind as MessageKind;
      if (!mail) {
        log.info({ outboxId: id, channel: 'email', kind }, 'message kept in the outbox');
        return;
      }
      await deliver(id, 'email', kind, () =>
        mail.send({ from, to: row.recipient, subject: row.subject ?? '', text: row.body }),
      );
    },
    async sendSms(message) {
      const id = await store('sms', message);
      if (sms) await deliver(id, 'sms', message.kind, () => sms.send({ to: message.to, text: message.text }));
      else log.info({ outboxId: id, channel: 'sms', kind: message.kind }, 'message kept in the outbox');
      return id;
    },
  };
}
