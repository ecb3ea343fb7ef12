import { sql } from 'kysely';
import { appPaths } from '@roadpass/contracts';
import { batchArray } from '../../db/batch-array.js';
import { changeNotices } from '../../db/change-notices.js';
import type { Db } from '../../db/database.js';
import { ApiError } from '../../lib/api-error.js';
import { batchPerTurn } from '../../lib/batch-per-turn.js';
import { isCustomerId } from '../../lib/customer-id.js';
import { hashToken, isTokenShaped, newToken } from '../../lib/single-use-token.js';
import type { Customer, CustomerRepository } from '../customers/index.js';
import { type MessageSender, linkInLanguage, type MessageTexts } from '../messages/index.js';
import { recordSecurityEvent } from '../security-activity/index.js';

/** How long a confirmation link works. */
export const EMAIL_CHANGE_TTL_SECONDS = 24 * 3600;

export interface EmailChangeService {
  /**
   * Asks to change the customer's e-mail to `newEmail`: stores it as pending (replacing an earlier
   * pending change, whose link stops working) and sends a confirmation link to the NEW address.
   * The same address as now cancels a pending change instead. An address another customer uses gets
   * the same answer and the same pending state (ASVS V6: nobody learns whether an address has an
   * account), but no link: its owner is told instead, in their language, that someone tried to use
   * it; no account changes, and no link that could confirm the change exists.
   */
  request(customer: Customer, newEmail: string): Promise<{ pendingEmail: string | null }>;
  /** The address waiting for confirmation while its link works, else null. */
  pending(customerId: string): Promise<string | null>;
  /** Drops a pending change (its link stops working). */
  cancel(customerId: string): Promise<void>;
  /**
   * Confirms by the link's token: the e-mail (and so the sign-in name) changes and the OLD address
   * is told. Unknown, expired or used token: 404; address taken meanwhile: 409. Nothing changes then.
   */
  confirm(token: string): Promise<Customer>;
}

export interface EmailChangeOptions {
  db: Db;
  customers: CustomerRepository;
  sender: MessageSender;
  texts: MessageTexts;
  /** The server's public origin: links in e-mails are absolute. */
  publicUrl: string;
  now?: () => Date;
  ttlSeconds?: number;
}

export const emailErrorCodes = {
  emailTaken: 'email_taken',
  linkInvalid: 'link_invalid',
} as const;

const takenViolation = {
  field: 'email',
  rule: 'unique',
  message: 'Another account already uses this e-mail address',
};

/** The e-mail change of issue 8 (confirm by a link to the new address). The app wires one in app.ts. */
export function createEmailChangeService({
  db,
  customers,
  sender,
  texts,
  publicUrl,
  now = () => new Date(),
  ttlSeconds = EMAIL_CHANGE_TTL_SECONDS,
}: EmailChangeOptions): EmailChangeService {
  const invalidLink = () =>
    new ApiError(404, emailErrorCodes.linkInvalid, 'This confirmation link is unknown, used or expired');

  /**
   * The pending addresses of the profile reads of one turn of the event loop, in one statement
   * (decision 0053): every profile read asks for it beside the customer's row. The service is built
   * on the database (app.ts), never on a transaction.
   */
  const pendingOf = batchPerTurn<string, string | null>(async (customerIds) => {
    const rows = await db
      .selectFrom('email_changes')
      .select(['customer_id', 'new_email'])
      .where(sql<boolean>`customer_id = any(${batchArray(customerIds, 'uuid')})`)
      .where('expires_at', '>', now())
      .execute();
    const byCustomer = new Map(rows.map((row) => [row.customer_id, row.new_email]));
    return customerIds.map((id) => byCustomer.get(id) ?? null);
  });

  const service: EmailChangeService = {
    async request(customer, newEmail) {
      const email = newEmail.trim();
      // The profile rules check the address first; this keeps the service safe on its own.
      if (email.length > 254 || !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) {
        throw ApiError.badRequest('Not an e-mail address', [
          { field: 'email', rule: 'email', message: 'email must be an e-mail address' },
        ]);
      }
      if (email.toLowerCase() === customer.email.toLowerCase()) {
        await service.cancel(customer.id);
        return { pendingEmail: null };
      }
      const owner = await customers.findByEmail(email);
      const taken = owner !== undefined && owner.id !== customer.id;
      // Both branches store a pending change and send one e-mail, so that the answer, what the
      // profile shows afterwards and the time taken are the same. For a taken address the token is
      // never sent anywhere: the change it stands for can never be confirmed.
      const token = newToken();
      const row = {
        customer_id: customer.id,
        new_email: email,
        token_hash: hashToken(token),
        expires_at: new Date(now().getTime() + ttlSeconds * 1000),
        created_at: now(),
      };
      await db
        .insertInto('email_changes')
        .values(row)
        .onConflict((oc) =>
          oc.column('customer_id').doUpdateSet({
            new_email: row.new_email,
            token_hash: row.token_hash,
            expires_at: row.expires_at,
            created_at: row.created_at,
          }),
        )
        .execute();
      // docs/product/security.md#security-activity (also for a taken address: the same for the customer).
      await recordSecurityEvent(db, customer.id, 'email_change_requested');
      if (taken) {
        const values = {
          name: owner.first_name,
          email: owner.email,
          // The app's address: it sends a visitor who is not signed in to the sign-in page.
          link: linkInLanguage(publicUrl, '/', owner.language),
        };
        await sender.sendEmail({
          to: owner.email,
          subject: texts.render(owner.language, 'email-in-use.subject', values),
          text: texts.render(owner.language, 'email-in-use.body', values),
          kind: 'email-in-use',
          customerId: owner.id,
        });
        return { pendingEmail: email };
      }
      const values = {
        name: customer.first_name,
        email,
        link: linkInLanguage(publicUrl, appPaths.emailConfirm(token), customer.language),
      };
      await sender.sendEmail({
        to: email,
        subject: texts.render(customer.language, 'email-confirmation.subject', values),
        text: texts.render(customer.language, 'email-confirmation.body', values),
        kind: 'email-confirmation',
        customerId: customer.id,
      });
      return { pendingEmail: email };
    },

    async pending(customerId) {
      return isCustomerId(customerId) ? pendingOf(customerId.toLowerCase()) : null;
    },

    async cancel(customerId) {
      await db.deleteFrom('email_changes').where('customer_id', '=', customerId).execute();
    },

    async confirm(token) {
      if (!isTokenShaped(token)) throw invalidLink();
      const { before, after } = await db
        .transaction()
        .execute(async (tx) => {
          const change = await tx
            .selectFrom('email_changes')
            .selectAll()
            .where('token_hash', '=', hashToken(token))
            .forUpdate()
            .executeTakeFirst();
          if (!change || change.expires_at.getTime() <= now().getTime()) throw invalidLink();
          const taken = await tx
            .selectFrom('customers')
            .select('id')
            .where(sql<string>`lower(email)`, '=', change.new_email.toLowerCase())
            .where('id', '<>', change.customer_id)
            .executeTakeFirst();
          if (taken) {
            throw new ApiError(
              409,
              emailErrorCodes.emailTaken,
              'Another account took this e-mail address meanwhile',
              [takenViolation],
            );
          }
          const old = await tx
            .selectFrom('customers')
            .select(['email', 'first_name', 'language'])
            .where('id', '=', change.customer_id)
            .executeTakeFirstOrThrow();
          await tx
            .updateTable('customers')
            .set({ email: change.new_email, updated_at: now() })
            .where('id', '=', change.customer_id)
            .execute();
          await tx.deleteFrom('email_changes').where('customer_id', '=', change.customer_id).execute();
          await recordSecurityEvent(tx, change.customer_id, 'email_changed');
          return { before: old, after: change };
        })
        .catch((error: unknown) => {
          // Another customer took the address between our check and the update (unique index).
          if ((error as { code?: string }).code === '23505') {
            throw new ApiError(
              409,
              emailErrorCodes.emailTaken,
              'Another account took this e-mail address meanwhile',
              [takenViolation],
            );
          }
          throw error;
        });
      changeNotices(db).publish('customer', after.customer_id);
      const values = { name: before.first_name, email: after.new_email };
      await sender.sendEmail({
        to: before.email,
        subject: texts.render(before.language, 'email-changed.subject', values),
        text: texts.render(before.language, 'email-changed.body', values),
        kind: 'email-changed',
        customerId: after.customer_id,
      });
      return (await customers.findById(after.customer_id))!;
    },
  };
  return service;
}
