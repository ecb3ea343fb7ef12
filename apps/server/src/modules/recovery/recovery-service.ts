import type { FastifyBaseLogger } from 'fastify';
import { sql } from 'kysely';
import {
  checkValues,
  compileRules,
  customValidators,
  type MetaDataList,
  type RuleViolation,
} from '@roadpass/contracts';
import type { Db } from '../../db/database.js';
import { hashToken, isTokenShaped, newToken } from '../../lib/single-use-token.js';
import { endSessions, type SessionEndReason } from '../sessions/index.js';
import type { Customer, CustomerRepository } from '../customers/index.js';
import { messageLanguage, type MessageSender, type MessageTexts } from '../messages/index.js';
import { recordSecurityEvent } from '../security-activity/index.js';
import { deviceSummary, shortenAddress } from '../../lib/device-description.js';

/** docs/product/security.md#forgot-password: a reset link works 30 minutes, once. */
export const RESET_TTL_SECONDS = 30 * 60;
/** docs/product/security.md#new-device-notice: the "This wasn't me" link of a notice works 7 days, once. */
const NOT_ME_TTL_SECONDS = 7 * 24 * 3600;
/** After a reset, this browser signs in without the password once within this time. */
export const SIGN_IN_AFTER_RESET_TTL_SECONDS = 15 * 60;
/** At most this many reset e-mails per account per hour; more requests are answered alike, silently. */
export const RESETS_PER_ACCOUNT_PER_HOUR = 3;

export type RecoveryPurpose = 'reset' | 'not_me' | 'sign_in';

/** Ends every session of the customer (docs/product/security.md#sessions); how many ended. */
const endEverySession = async (db: Db, customerId: string, reason: SessionEndReason) =>
  (await endSessions(db, customerId, 'all', reason)).length;

export interface RecoveryOptions {
  db: Db;
  customers: CustomerRepository;
  sender: MessageSender;
  texts: MessageTexts;
  /** The password rules as served (content/account-rules), checked by the contracts' interpreter. */
  passwordRules: MetaDataList;
  /** Absolute link of a page under the realm for a token, in a language (set by the pages). */
  links: {
    reset(token: string, language: string): string;
    notMe(token: string, language: string): string;
  };
  log: FastifyBaseLogger;
  now?: () => Date;
}

export interface SignInNotice {
  /** The browser held a device cookie of this account (decision 0010). */
  knownDevice: boolean;
  userAgent: string | undefined;
  ip: string;
}

/**
 * Account recovery (docs/product/security.md#forgot-password, #new-device-notice): reset links by
 * e-mail, the new-device notice with its "This wasn't me" link, and the single-use sign-in after a
 * reset. Tokens are single-use links without login (decision 0028): 256 random bits, stored hashed.
 */
export function createRecoveryService(options: RecoveryOptions) {
  const { db, customers, sender, texts, links, log } = options;
  const now = options.now ?? (() => new Date());
  const compiled = compileRules(options.passwordRules);

  async function issue(customerId: string, purpose: RecoveryPurpose, ttlSeconds: number): Promise<string> {
    const token = newToken();
    const at = now();
    await db
      .insertInto('recovery_tokens')
      .values({
        token_hash: hashToken(token),
        customer_id: customerId,
        purpose,
        created_at: at,
        expires_at: new Date(at.getTime() + ttlSeconds * 1000),
      })
      .execute();
    return token;
  }

  /**
   * A reset token when the customer asked fewer than RESETS_PER_ACCOUNT_PER_HOUR times in the last hour,
   * else undefined. Counting and issuing hold the customer's row, so requests arriving together cannot
   * all read the same count and all send (the limit held 3 of 3 only one at a time).
   */
  async function issueResetWithinLimit(customerId: string): Promise<string | undefined> {
    return db.transaction().execute(async (tx) => {
      await tx.selectFrom('customers').select('id').where('id', '=', customerId).forUpdate().execute();
      const since = new Date(now().getTime() - 3600 * 1000);
      const { count } = await tx
        .selectFrom('recovery_tokens')
        .select(sql<string>`count(*)`.as('count'))
        .where('customer_id', '=', customerId)
        .where('purpose', '=', 'reset')
        .where('created_at', '>', since)
        .executeTakeFirstOrThrow();
      if (Number(count) >= RESETS_PER_ACCOUNT_PER_HOUR) return undefined;
      const token = newToken();
      const at = now();
      await tx
        .insertInto('recovery_tokens')
        .values({
          token_hash: hashToken(token),
          customer_id: customerId,
          purpose: 'reset',
          created_at: at,
          expires_at: new Date(at.getTime() + RESET_TTL_SECONDS * 1000),
        })
        .execute();
      return token;
    });
  }

  /** The customer of a token that still works for `purpose` (not used, not expired); nothing changes. */
  async function holderOf(token: string, purpose: RecoveryPurpose): Promise<Customer | undefined> {
    if (!isTokenShaped(token)) return undefined;
    const row = await db
      .selectFrom('recovery_tokens')
      .select('customer_id')
      .where('token_hash', '=', hashToken(token))
      .where('purpose', '=', purpose)
      .where('used_at', 'is', null)
      .where('expires_at', '>', now())
      .executeTakeFirst();
    return row ? customers.findById(row.customer_id) : undefined;
  }

  /** Uses a token up: the customer id when it still worked, once (concurrent uses: one wins). */
  async function consume(token: string, purpose: RecoveryPurpose): Promise<string | undefined> {
    if (!isTokenShaped(token)) return undefined;
    const row = await db
      .updateTable('recovery_tokens')
      .set({ used_at: now() })
      .where('token_hash', '=', hashToken(token))
      .where('purpose', '=', purpose)
      .where('used_at', 'is', null)
      .where('expires_at', '>', now())
      .returning('customer_id')
      .executeTakeFirst();
    return row?.customer_id;
  }

  /** Every reset and "wasn't me" link of the customer stops working (after a reset). */
  async function voidLinks(customerId: string): Promise<void> {
    await db
      .updateTable('recovery_tokens')
      .set({ used_at: now() })
      .where('customer_id', '=', customerId)
      .where('used_at', 'is', null)
      .execute();
  }

  return {
    /**
     * "Forgot your password?": when the address belongs to an account that asked fewer than
     * RESETS_PER_ACCOUNT_PER_HOUR times in the last hour, a reset link goes out in the customer's
     * language. Otherwise nothing happens. The caller answers the same either way and does not wait.
     */
    async requestReset(email: string): Promise<void> {
      const customer = await customers.findByEmail(email.trim());
      if (!customer) return;
      const token = await issueResetWithinLimit(customer.id);
      if (!token) {
        log.info('password reset not sent: account over its hourly limit');
        return;
      }
      const values = {
        name: customer.first_name,
        link: links.reset(token, customer.language),
        minutes: String(RESET_TTL_SECONDS / 60),
      };
      await sender.sendEmail({
        to: customer.email,
        subject: texts.render(customer.language, 'password-reset.subject', values),
        text: texts.render(customer.language, 'password-reset.body', values),
        kind: 'password-reset',
        customerId: customer.id,
      });
    },

    /** The customer a reset link is for while it works (the page shows the form), else undefined. */
    resetHolder: (token: string) => holderOf(token, 'reset'),

    /** The customer a "This wasn't me" link is for while it works, else undefined. */
    notMeHolder: (token: string) => holderOf(token, 'not_me'),

    /** What the new password breaks of the served rules (the field `password` only). */
    checkPassword(password: string): RuleViolation[] {
      return checkValues(compiled, { password, passwordOld: '' }, { customValidators }).filter(
        (v) => v.field === 'password' && v.rule !== 'differsFrom',
      );
    },

    /**
     * Sets the new password by a reset link (used up here): every session of the customer ends, every
     * other recovery link stops working, `password_reset` is recorded. Answers a single-use token for
     * signing this browser in, or undefined when the link no longer works (nothing changed then).
     * The caller has checked the password with `checkPassword`.
     */
    async resetPassword(
      token: string,
      password: string,
      context: { ip: string; userAgent: string | undefined },
    ): Promise<{ customer: Customer; signInToken: string } | undefined> {
      const customerId = await consume(token, 'reset');
      if (!customerId) return undefined;
      await customers.setPassword(customerId, password);
      await voidLinks(customerId);
      const sessionsEnded = await endEverySession(db, customerId, 'password_reset');
      // The same details as a sign-in's: the activity page describes the device and place from them.
      await recordSecurityEvent(db, customerId, 'password_reset', {
        sessionsEnded,
        address: context.ip,
        userAgent: context.userAgent?.slice(0, 512) ?? '',
      });
      const customer = (await customers.findById(customerId))!;
      return { customer, signInToken: await issue(customerId, 'sign_in', SIGN_IN_AFTER_RESET_TTL_SECONDS) };
    },

    /**
     * "This wasn't me" (used up here): every session of the customer ends and `not_me` is recorded;
     * answers a fresh reset token for setting a new password, or undefined when the link no longer works.
     */
    async notMe(token: string, context: { ip: string }): Promise<string | undefined> {
      const customerId = await consume(token, 'not_me');
      if (!customerId) return undefined;
      const sessionsEnded = await endEverySession(db, customerId, 'not_me');
      await recordSecurityEvent(db, customerId, 'not_me', { sessionsEnded, address: context.ip });
      return issue(customerId, 'reset', RESET_TTL_SECONDS);
    },

    /** The customer id of a sign-in-after-reset token, used up here; undefined when it no longer works. */
    consumeSignIn: (token: string) => consume(token, 'sign_in'),

    /**
     * After a successful sign-in with the password: the first sign-in ever of the customer is noted;
     * any later one from a browser without this account's device cookie sends the new-device notice
     * (docs/product/security.md#new-device-notice) with a "This wasn't me" link.
     */
    async signedIn(customer: Customer, notice: SignInNotice): Promise<void> {
      const first = await db
        .insertInto('customer_sign_ins')
        .values({ customer_id: customer.id, first_at: now() })
        .onConflict((oc) => oc.column('customer_id').doNothing())
        .returning('customer_id')
        .executeTakeFirst();
      if (first || notice.knownDevice) return;
      const token = await issue(customer.id, 'not_me', NOT_ME_TTL_SECONDS);
      const lang = messageLanguage(customer.language);
      const values = {
        name: customer.first_name,
        time: new Intl.DateTimeFormat(customer.language.replace('_', '-'), {
          day: 'numeric',
          month: 'long',
          year: 'numeric',
          hour: '2-digit',
          minute: '2-digit',
          timeZone: 'Europe/Berlin',
          timeZoneName: 'short',
        }).format(now()),
        device: deviceSummary(notice.userAgent) ?? texts.render(lang, 'new-device.unknown', {}),
        address: shortenAddress(notice.ip),
        link: links.notMe(token, customer.language),
      };
      await sender.sendEmail({
        to: customer.email,
        subject: texts.render(customer.language, 'new-device.subject', values),
        text: texts.render(customer.language, 'new-device.body', values),
        kind: 'new-device',
        customerId: customer.id,
      });
    },
  };
}

export type RecoveryService = ReturnType<typeof createRecoveryService>;
