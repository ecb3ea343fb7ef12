import { appPaths, type NewsletterChannel, type NewsletterLogRTO } from '@roadpass/contracts';
import type { Db } from '../../db/database.js';
import { ApiError } from '../../lib/api-error.js';
import { hashToken, isTokenShaped, newToken } from '../../lib/single-use-token.js';
import type { Customer } from '../customers/index.js';
import { type MessageSender, linkInLanguage, type MessageTexts } from '../messages/index.js';

/** How long an unsubscribe link in a newsletter e-mail works. */
export const UNSUBSCRIBE_TOKEN_TTL_SECONDS = 90 * 86_400;

export interface NewsletterService {
  /** The agreement, its id and history (newest first); a customer without one has agreement false. */
  log(customerId: string): Promise<NewsletterLogRTO>;
  /** Sets the agreement by its id; records a history entry when it changes. 403 for another's id. */
  setAgreement(
    customerId: string,
    id: string,
    agreement: boolean,
    channel: NewsletterChannel,
  ): Promise<NewsletterLogRTO>;
  /** A fresh unsubscribe link token for the customer (only its hash is kept). */
  createUnsubscribeToken(customerId: string): Promise<string>;
  /** The e-mail address a valid token's link was sent to; 404 for any other token. */
  lookup(token: string): Promise<string>;
  /** Unsubscribes by a valid token (history channel EMAIL) and uses it up, answering the address; 404 for any other token. */
  unsubscribe(token: string): Promise<string>;
  /** Sends a newsletter e-mail with its unsubscribe link (demo data; a real campaign tool would). */
  sendNewsletter(customer: Customer): Promise<void>;
}

export interface NewsletterOptions {
  db: Db;
  sender: MessageSender;
  texts: MessageTexts;
  publicUrl: string;
  now?: () => Date;
}

/** One answer for unknown, expired and used tokens: none tells whether an address exists. */
const noSuchLink = () => ApiError.notFound('This unsubscribe link is unknown, used or expired');

export function createNewsletterService({
  db,
  sender,
  texts,
  publicUrl,
  now = () => new Date(),
}: NewsletterOptions): NewsletterService {
  /** The customer's agreement row, created (not agreed) on first use so it has an id to answer. */
  const agreementOf = async (customerId: string) => {
    await db
      .insertInto('newsletter_agreements')
      .values({ customer_id: customerId, agreement: false })
      .onConflict((oc) => oc.column('customer_id').doNothing())
      .execute();
    return db
      .selectFrom('newsletter_agreements')
      .selectAll()
      .where('customer_id', '=', customerId)
      .executeTakeFirstOrThrow();
  };

  const change = async (customerId: string, agreement: boolean, channel: NewsletterChannel) => {
    await db.transaction().execute(async (tx) => {
      const updated = await tx
        .updateTable('newsletter_agreements')
        .set({ agreement, updated_at: now() })
        .where('customer_id', '=', customerId)
        .where('agreement', '=', !agreement)
        .executeTakeFirst();
      if (Number(updated.numUpdatedRows) === 1) {
        await tx
          .insertInto('newsletter_events')
          .values({
            customer_id: customerId,
            action: agreement ? 'SUBSCRIBE' : 'UNSUBSCRIBE',
            channel,
            occurred_at: now(),
          })
          .execute();
      }
    });
  };

  const validToken = async (token: string) => {
    if (!isTokenShaped(token)) throw noSuchLink();
    const row = await db
      .selectFrom('unsubscribe_tokens')
      .innerJoin('customers', 'customers.id', 'unsubscribe_tokens.customer_id')
      .select([
        'unsubscribe_tokens.customer_id',
        'unsubscribe_tokens.expires_at',
        'unsubscribe_tokens.used_at',
        'customers.email',
      ])
      .where('unsubscribe_tokens.token_hash', '=', hashToken(token))
      .executeTakeFirst();
    if (!row || row.used_at !== null || row.expires_at.getTime() <= now().getTime()) throw noSuchLink();
    return row;
  };

  const service: NewsletterService = {
    async log(customerId) {
      const agreement = await agreementOf(customerId);
      const events = await db
        .selectFrom('newsletter_events')
        .select(['action', 'channel', 'occurred_at'])
        .where('customer_id', '=', customerId)
        .orderBy('occurred_at', 'desc')
        .orderBy('id', 'desc')
        .execute();
      return {
        id: agreement.id,
        newsletterAgreement: agreement.agreement,
        history: events.map((e) => ({
          date: new Date(e.occurred_at).toISOString(),
          action: e.action,
          channel: e.channel,
        })),
      };
    },

    async setAgreement(customerId, id, agreement, channel) {
      const own = await agreementOf(customerId);
      if (own.id !== id.toLowerCase()) {
        const other = /^[0-9a-f-]{36}$/i.test(id)
          ? await db
              .selectFrom('newsletter_agreements')
              .select('customer_id')
              .where('id', '=', id)
              .executeTakeFirst()
          : undefined;
        if (other) throw ApiError.forbidden('You may only change your own newsletter agreement');
        throw ApiError.notFound(`No newsletter agreement ${id}`);
      }
      await change(customerId, agreement, channel);
      return service.log(customerId);
    },

    async createUnsubscribeToken(customerId) {
      const token = newToken();
      await db
        .insertInto('unsubscribe_tokens')
        .values({
          token_hash: hashToken(token),
          customer_id: customerId,
          expires_at: new Date(now().getTime() + UNSUBSCRIBE_TOKEN_TTL_SECONDS * 1000),
          created_at: now(),
        })
        .execute();
      return token;
    },

    async lookup(token) {
      return (await validToken(token)).email;
    },

    async unsubscribe(token) {
      const row = await validToken(token);
      await agreementOf(row.customer_id);
      // Use the token up first, conditionally, so two clicks at once unsubscribe once.
      const used = await db
        .updateTable('unsubscribe_tokens')
        .set({ used_at: now() })
        .where('token_hash', '=', hashToken(token))
        .where('used_at', 'is', null)
        .executeTakeFirst();
      if (Number(used.numUpdatedRows) !== 1) throw noSuchLink();
      await change(row.customer_id, false, 'EMAIL');
      return row.email;
    },

    async sendNewsletter(customer) {
      const token = await service.createUnsubscribeToken(customer.id);
      const values = {
        name: customer.first_name,
        link: linkInLanguage(publicUrl, appPaths.newsletterUnsubscribe(token), customer.language),
      };
      await sender.sendEmail({
        to: customer.email,
        subject: texts.render(customer.language, 'newsletter.subject', values),
        text: texts.render(customer.language, 'newsletter.body', values),
        kind: 'newsletter',
        customerId: customer.id,
      });
    },
  };
  return service;
}
