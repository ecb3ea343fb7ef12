import { randomUUID } from 'node:crypto';
import type { AccountDeletionStatus, DeletionBlocker, DeletionBlockersReport } from '@roadpass/contracts';
import { sql } from 'kysely';
import type { Db } from '../../db/database.js';
import { endSessions } from '../sessions/index.js';
import { longDate, type MessageSender, type MessageTexts } from '../messages/index.js';
import { recordSecurityEvent } from '../security-activity/index.js';
import { accountPageLink } from './links.js';

const DAY_MS = 86_400_000;

export interface ErasureDeps {
  db: Db;
  texts: MessageTexts;
  sender: MessageSender;
  publicUrl: string;
  graceDays: number;
}

export async function blockersOf(db: Db, customerId: string): Promise<DeletionBlocker[]> {
  const rows = await db
    .selectFrom('deletion_blockers')
    .select(['legal_entity_id', 'kind', 'reference'])
    .where('customer_id', '=', customerId)
    .orderBy('legal_entity_id')
    .orderBy('kind')
    .orderBy('reference')
    .execute();
  return rows.map((r) => ({ legalEntityId: r.legal_entity_id, kind: r.kind, reference: r.reference }));
}

export async function deletionStatus(
  db: Db,
  customerId: string,
  graceDays: number,
): Promise<AccountDeletionStatus> {
  const deletion = await db
    .selectFrom('account_deletions')
    .select(['requested_at', 'scheduled_for'])
    .where('customer_id', '=', customerId)
    .executeTakeFirst();
  return {
    blockers: await blockersOf(db, customerId),
    deletion: deletion
      ? {
          requestedAt: new Date(deletion.requested_at).toISOString(),
          scheduledFor: new Date(deletion.scheduled_for).toISOString(),
        }
      : null,
    graceDays,
  };
}

export class DeletionBlocked extends Error {
  constructor(readonly blockers: DeletionBlocker[]) {
    super('The rental system reports something to settle first');
  }
}

/**
 * Schedules the deletion `graceDays` ahead (docs/product/data-rights.md#close-my-account), unless the
 * rental system reports a blocker. Ends every other session and e-mails the date. Asking again while
 * scheduled changes nothing.
 */
export async function scheduleDeletion(
  deps: ErasureDeps,
  customerId: string,
  keepSessionId: string | undefined,
  now: Date,
): Promise<{ status: AccountDeletionStatus; created: boolean }> {
  const { db } = deps;
  const created = await db.transaction().execute(async (tx) => {
    await sql`select pg_advisory_xact_lock(hashtext(${`account-deletion:${customerId}`}))`.execute(tx);
    const blockers = await blockersOf(tx, customerId);
    if (blockers.length > 0) throw new DeletionBlocked(blockers);
    const existing = await tx
      .selectFrom('account_deletions')
      .select('customer_id')
      .where('customer_id', '=', customerId)
      .executeTakeFirst();
    if (existing) return false;
    const scheduledFor = new Date(now.getTime() + deps.graceDays * DAY_MS);
    await tx
      .insertInto('account_deletions')
      .values({ customer_id: customerId, requested_at: now, scheduled_for: scheduledFor })
      .execute();
    await recordSecurityEvent(tx, customerId, 'deletion_requested', {
      scheduledFor: scheduledFor.toISOString(),
    });
    return true;
  });
  const status = await deletionStatus(db, customerId, deps.graceDays);
  if (created && status.deletion) {
    await endSessions(db, customerId, { except: keepSessionId }, 'signed_out_elsewhere');
    const customer = await db
      .selectFrom('customers')
      .selectAll()
      .where('id', '=', customerId)
      .executeTakeFirstOrThrow();
    const values = {
      name: customer.first_name,
      date: longDate(customer.language, new Date(status.deletion.scheduledFor)),
      link: accountPageLink(deps.publicUrl, customer),
    };
    await deps.sender.sendEmail({
      to: customer.email,
      kind: 'deletion-scheduled',
      customerId,
      subject: deps.texts.render(customer.language, 'deletion-scheduled.subject', values),
      text: deps.texts.render(customer.language, 'deletion-scheduled.body', values),
    });
  }
  return { status, created };
}

/** "Keep my account": cancels a scheduled deletion. True when there was one. */
export async function cancelDeletion(db: Db, customerId: string): Promise<boolean> {
  return db.transaction().execute(async (tx) => {
    const deleted = await tx
      .deleteFrom('account_deletions')
      .where('customer_id', '=', customerId)
      .executeTakeFirst();
    if (Number(deleted.numDeletedRows) === 0) return false;
    await recordSecurityEvent(tx, customerId, 'deletion_cancelled');
    return true;
  });
}

/** The rental system's report for one customer and legal entity replaces its previous one. */
export async function replaceBlockers(
  db: Db,
  customerId: string,
  report: DeletionBlockersReport,
  now: Date,
): Promise<DeletionBlocker[] | undefined> {
  return db.transaction().execute(async (tx) => {
    const customer = await tx
      .selectFrom('customers')
      .select('id')
      .where('id', '=', customerId)
      .executeTakeFirst();
    if (!customer) return undefined;
    await tx
      .deleteFrom('deletion_blockers')
      .where('customer_id', '=', customerId)
      .where('legal_entity_id', '=', report.legalEntityId)
      .execute();
    const unique = new Map(report.blockers.map((b) => [`${b.kind}|${b.reference}`, b]));
    if (unique.size > 0)
      await tx
        .insertInto('deletion_blockers')
        .values(
          [...unique.values()].map((b) => ({
            customer_id: customerId,
            legal_entity_id: report.legalEntityId,
            kind: b.kind,
            reference: b.reference,
            reported_at: now,
          })),
        )
        .execute();
    return blockersOf(tx, customerId);
  });
}

/**
 * Erases one customer now (docs/product/data-rights.md#what-erasure-keeps): the last e-mail first,
 * then in one transaction the ledger goes to a random pseudonym (no mapping kept), consent answers
 * become anonymous counts, sessions and every per-customer row go, the customer row goes (cascading
 * the rest), and the erasure feed gets the customer's id for the rental system. Safe to run twice:
 * an erased customer is simply not found.
 */
export async function eraseCustomer(
  deps: Omit<ErasureDeps, 'graceDays'>,
  customerId: string,
  now: Date,
): Promise<boolean> {
  const { db } = deps;
  const customer = await db
    .selectFrom('customers')
    .selectAll()
    .where('id', '=', customerId)
    .executeTakeFirst();
  if (!customer) return false;
  const deletion = await db
    .selectFrom('account_deletions')
    .select('last_email_sent_at')
    .where('customer_id', '=', customerId)
    .executeTakeFirst();
  if (!deletion?.last_email_sent_at) {
    const values = { name: customer.first_name };
    await deps.sender.sendEmail({
      to: customer.email,
      kind: 'deletion-done',
      customerId: null,
      subject: deps.texts.render(customer.language, 'deletion-done.subject', values),
      text: deps.texts.render(customer.language, 'deletion-done.body', values),
    });
    await db
      .updateTable('account_deletions')
      .set({ last_email_sent_at: now })
      .where('customer_id', '=', customerId)
      .execute();
  }
  // Sessions, grants and tokens of the account (oidc_model_instances has no foreign key).
  await endSessions(db, customerId, 'all', 'account_deleted');
  return db.transaction().execute(async (tx) => {
    const locked = await tx
      .selectFrom('customers')
      .select('id')
      .where('id', '=', customerId)
      .forUpdate()
      .executeTakeFirst();
    if (!locked) return false;
    const pseudonym = randomUUID();
    await sql`
      insert into loyalty_ledger_archive
        (pseudonym_id, legal_entity_id, seq, type, points, occurred_at, expires_at, tier_after)
      select ${pseudonym}::uuid, ${customer.legal_entity_id}::integer, seq, type, points, occurred_at, expires_at, tier_after
      from loyalty_events where customer_id = ${customerId}::uuid`.execute(tx);
    await sql`
      insert into erased_consent_counts (slug, legal_entity_id, granted, count)
      select slug, legal_entity_id, granted, count(*)::integer from customer_consents
      where customer_id = ${customerId}::uuid group by slug, legal_entity_id, granted
      on conflict (slug, legal_entity_id, granted)
      do update set count = erased_consent_counts.count + excluded.count`.execute(tx);
    await tx.deleteFrom('oidc_model_instances').where('account_id', '=', customerId).execute();
    // Messages sent to the customer go too; the last one stays (without the customer) until the outbox purge.
    await tx.deleteFrom('outbox').where('customer_id', '=', customerId).execute();
    // Every other per-customer table (consents, profiles, passkeys, activity…) goes with the row: their
    // foreign keys cascade.
    await tx.deleteFrom('customers').where('id', '=', customerId).execute();
    await tx
      .insertInto('erasures')
      .values({ customer_id: customerId, legal_entity_id: customer.legal_entity_id, erased_at: now })
      .onConflict((oc) => oc.column('customer_id').doNothing())
      .execute();
    return true;
  });
}

/** A claimed erasure whose instance stopped is taken again after this. */
const LEASE_MS = 10 * 60_000;

/**
 * Erases every customer whose day has come, one at a time. Each due row is claimed with FOR UPDATE
 * SKIP LOCKED and a lease, so instances running this together never take the same customer, and one
 * that stopped mid-way leaves it to the next run; every step of eraseCustomer is safe to repeat. A
 * blocker reported during the grace period holds the erasure back until the rental system clears it.
 */
export async function runDueErasures(deps: ErasureDeps, now: Date): Promise<number> {
  let erased = 0;
  const skipped: string[] = [];
  for (;;) {
    const due = await deps.db.transaction().execute(async (tx) => {
      let query = tx
        .selectFrom('account_deletions')
        .select('customer_id')
        .where('scheduled_for', '<=', now)
        .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<', now)]))
        .orderBy('scheduled_for')
        .limit(1)
        .forUpdate()
        .skipLocked();
      if (skipped.length) query = query.where('customer_id', 'not in', skipped);
      const row = await query.executeTakeFirst();
      if (!row) return undefined;
      if ((await blockersOf(tx, row.customer_id)).length > 0) return { id: row.customer_id, blocked: true };
      await tx
        .updateTable('account_deletions')
        .set({ locked_until: new Date(now.getTime() + LEASE_MS) })
        .where('customer_id', '=', row.customer_id)
        .execute();
      return { id: row.customer_id, blocked: false };
    });
    if (due === undefined) return erased;
    if (due.blocked) {
      skipped.push(due.id);
      continue;
    }
    if (await eraseCustomer(deps, due.id, now)) erased += 1;
  }
}
