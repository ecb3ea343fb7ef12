import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';
import {
  checkValues,
  compileRules,
  customValidators,
  phoneNumberInput,
  type ConstraintViolationMeta,
  type MetaDataList,
  type PendingMobilePhone,
} from '@roadpass/contracts';
import { changeNotices } from '../../db/change-notices.js';
import type { Db } from '../../db/database.js';
import { ConstraintViolation } from '../../lib/constraint-violation.js';
import {
  PIN_MAX_ATTEMPTS,
  PIN_RESEND_GAP_SECONDS,
  PIN_SENDS_PER_HOUR,
  PIN_TTL_SECONDS,
} from './pin-limits.js';
import { getOrCreateSecret, randomSecret } from '../../lib/app-secrets.js';
import { loadedOnce } from '../../lib/loaded-once.js';
import type { Customer } from '../customers/index.js';
import type { MessageSender, MessageKey, MessageTexts } from '../messages/index.js';
import { recordSecurityEvent } from '../security-activity/index.js';

export interface MobileState {
  mobilePhone: string | null;
  pending: PendingMobilePhone | null;
}

export interface MobileService {
  /** The rules the call serves and enforces (content/account-rules, through the shared interpreter). */
  meta: MetaDataList;
  state(customer: Customer): Promise<MobileState>;
  /**
   * Sends a PIN to `mobilePhone` (replacing an earlier one), within the resend limits. The number may
   * be written as people write it (spaces, brackets, 00); the PIN goes to, and is kept for, its E.164.
   */
  requestPin(customer: Customer, mobilePhone: string): Promise<MobileState>;
  /** Confirms the number with its PIN: the customer's mobile number changes. */
  confirm(customer: Customer, mobilePhone: string, pin: string): Promise<MobileState>;
}

export interface MobileServiceOptions {
  db: Db;
  /** The mobile rules of content/account-rules (mobilePhone, pin). */
  rules: MetaDataList;
  sender: MessageSender;
  texts: MessageTexts;
  now?: () => Date;
}

const seconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

export function createMobileService({
  db,
  rules,
  sender,
  texts,
  now = () => new Date(),
}: MobileServiceOptions): MobileService {
  // Every rule's violation needs its text in the customer's language: a rule added to the content
  // without one fails at start, not as an English "mobilePhone: …" in front of a customer.
  const untold = rules
    .filter((rule) => rule.validator !== 'invisible' && rule.validator !== 'readonly')
    .map((rule) => `violation.${rule.attribute}.${rule.validator}`)
    .filter((key) => !texts.has(key));
  if (untold.length)
    throw new Error(`Mobile rules without a message text: ${[...new Set(untold)].join(', ')}`);
  const compiled = compileRules(rules);

  // PINs are stored as an HMAC with a server key: six digits are a million values, so a plain hash of
  // a leaked row could be reversed in a moment; without the key it cannot.
  const pinKey = loadedOnce(() => getOrCreateSecret(db, 'mobile-pin-key', () => randomSecret()));
  const pinHash = async (customerId: string, pin: string) =>
    createHmac('sha256', await pinKey())
      .update(`${customerId}:${pin}`)
      .digest('hex');

  const violation = (
    customer: Customer,
    attribute: string,
    validator: string,
    parameter: string | undefined,
    values: Record<string, string> = {},
  ): ConstraintViolationMeta => {
    const messageKey = `violation.${attribute}.${validator}`;
    const text = texts.has(messageKey)
      ? texts.render(customer.language, messageKey as MessageKey, values)
      : `${attribute}: ${validator}`;
    return { attribute, validator, ...(parameter !== undefined ? { parameter } : {}), text };
  };

  /**
   * Checks the attributes in `values` (a PIN request has no PIN yet) against the served rules. A PIN
   * request also against the number on the account (`currentMobilePhone`): a PIN for the number the
   * customer already has would confirm nothing. A confirmation is answered by its PIN's state.
   */
  const checkRules = async (
    customer: Customer,
    values: { mobilePhone: string; pin?: string },
    currentMobilePhone?: string,
  ) => {
    const found = checkValues(
      compiled,
      { ...values, currentMobilePhone },
      { today: now(), customValidators },
    ).filter((violation) => violation.field in values);
    if (found.length) {
      throw new ConstraintViolation(
        400,
        'The mobile number or PIN breaks a rule',
        found.map((v) => violation(customer, v.field, v.rule, v.parameter)),
      );
    }
  };

  /** When the next PIN may be sent: 60 s after the last, and no 6th within an hour. */
  const nextSendAt = async (
    customerId: string,
  ): Promise<{ at: Date; reason: 'resendWait' | 'resendLimit' | null }> => {
    const hourAgo = new Date(now().getTime() - 3600_000);
    const sends = await db
      .selectFrom('mobile_pin_sends')
      .select('sent_at')
      .where('customer_id', '=', customerId)
      .where('sent_at', '>', hourAgo)
      .orderBy('sent_at', 'desc')
      .execute();
    let at = new Date(0);
    let reason: 'resendWait' | 'resendLimit' | null = null;
    if (sends[0]) {
      at = new Date(sends[0].sent_at.getTime() + PIN_RESEND_GAP_SECONDS * 1000);
      reason = 'resendWait';
    }
    if (sends.length >= PIN_SENDS_PER_HOUR) {
      const hourly = new Date(sends[PIN_SENDS_PER_HOUR - 1]!.sent_at.getTime() + 3600_000);
      if (hourly > at) {
        at = hourly;
        reason = 'resendLimit';
      }
    }
    return { at, reason: at.getTime() > now().getTime() ? reason : null };
  };

  const service: MobileService = {
    async state(customer) {
      const row = await db
        .selectFrom('mobile_changes')
        .selectAll()
        .where('customer_id', '=', customer.id)
        .executeTakeFirst();
      const current = await db
        .selectFrom('customers')
        .select('mobile_phone')
        .where('id', '=', customer.id)
        .executeTakeFirstOrThrow();
      const pending =
        row && row.expires_at.getTime() > now().getTime()
          ? {
              mobilePhone: row.mobile_phone,
              expiresAt: row.expires_at.toISOString(),
              attemptsLeft: Math.max(0, PIN_MAX_ATTEMPTS - row.failed_attempts),
              // May lie in the past: then a PIN may be requested now (a stable answer, not "now").
              resendAvailableAt: (await nextSendAt(customer.id)).at.toISOString(),
            }
          : null;
      return { mobilePhone: current.mobile_phone, pending };
    },

    meta: rules,

    async requestPin(customer, typed) {
      const mobilePhone = phoneNumberInput(typed);
      const current = await db
        .selectFrom('customers')
        .select('mobile_phone')
        .where('id', '=', customer.id)
        .executeTakeFirstOrThrow();
      await checkRules(customer, { mobilePhone }, current.mobile_phone ?? undefined);
      const next = await nextSendAt(customer.id);
      if (next.reason) {
        const waitMs = next.at.getTime() - now().getTime();
        throw new ConstraintViolation(
          429,
          'Another PIN may not be sent yet',
          [
            violation(customer, 'mobilePhone', next.reason, undefined, {
              seconds: String(seconds(waitMs)),
              minutes: String(Math.ceil(waitMs / 60_000)),
            }),
          ],
          seconds(waitMs),
        );
      }
      const pin = String(randomInt(0, 1_000_000)).padStart(6, '0');
      const sentAt = now();
      const row = {
        customer_id: customer.id,
        mobile_phone: mobilePhone,
        pin_hash: await pinHash(customer.id, pin),
        expires_at: new Date(sentAt.getTime() + PIN_TTL_SECONDS * 1000),
        failed_attempts: 0,
        sent_at: sentAt,
      };
      await db.transaction().execute(async (tx) => {
        await tx
          .insertInto('mobile_changes')
          .values(row)
          .onConflict((oc) =>
            oc.column('customer_id').doUpdateSet({
              mobile_phone: row.mobile_phone,
              pin_hash: row.pin_hash,
              expires_at: row.expires_at,
              failed_attempts: 0,
              sent_at: row.sent_at,
            }),
          )
          .execute();
        await tx
          .insertInto('mobile_pin_sends')
          .values({ customer_id: customer.id, sent_at: sentAt })
          .execute();
      });
      await sender.sendSms({
        to: mobilePhone,
        text: texts.render(customer.language, 'mobile-pin.sms', { pin }),
        kind: 'mobile-pin',
        customerId: customer.id,
      });
      return service.state(customer);
    },

    async confirm(customer, typed, typedPin) {
      const mobilePhone = phoneNumberInput(typed);
      const pin = typedPin.trim();
      await checkRules(customer, { mobilePhone, pin });
      const refuse = (validator: string, values: Record<string, string> = {}) =>
        new ConstraintViolation(400, 'The PIN was not accepted', [
          violation(customer, 'pin', validator, undefined, values),
        ]);
      const row = await db
        .selectFrom('mobile_changes')
        .selectAll()
        .where('customer_id', '=', customer.id)
        .executeTakeFirst();
      if (!row || row.mobile_phone !== mobilePhone) throw refuse('pinNotRequested');
      if (row.expires_at.getTime() <= now().getTime()) throw refuse('pinExpired');
      if (row.failed_attempts >= PIN_MAX_ATTEMPTS) throw refuse('pinVoid');

      const expected = Buffer.from(row.pin_hash, 'hex');
      const given = Buffer.from(await pinHash(customer.id, pin), 'hex');
      if (!timingSafeEqual(expected, given)) {
        // The one change a refused PIN makes: it counts (atomically, so parallel guesses count too).
        const counted = await db
          .updateTable('mobile_changes')
          .set((eb) => ({ failed_attempts: eb('failed_attempts', '+', 1) }))
          .where('customer_id', '=', customer.id)
          .where('pin_hash', '=', row.pin_hash)
          .returning('failed_attempts')
          .executeTakeFirst();
        const left = PIN_MAX_ATTEMPTS - (counted?.failed_attempts ?? PIN_MAX_ATTEMPTS);
        throw left > 0 ? refuse('pinWrong', { attempts: String(left) }) : refuse('pinVoid');
      }
      // Consume the PIN and change the number together: a PIN confirms once.
      await db.transaction().execute(async (tx) => {
        const consumed = await tx
          .deleteFrom('mobile_changes')
          .where('customer_id', '=', customer.id)
          .where('pin_hash', '=', row.pin_hash)
          .where('failed_attempts', '<', PIN_MAX_ATTEMPTS)
          .executeTakeFirst();
        if (Number(consumed.numDeletedRows) !== 1) throw refuse('pinNotRequested');
        await tx
          .updateTable('customers')
          .set({ mobile_phone: mobilePhone, updated_at: now() })
          .where('id', '=', customer.id)
          .execute();
        await recordSecurityEvent(tx, customer.id, 'mobile_changed');
      });
      changeNotices(db).publish('customer', customer.id);
      return service.state(customer);
    },
  };
  return service;
}
