import type { Db } from '../../db/database.js';
import type { LoyaltyContent } from '../content/index.js';
import { demoProfiles, planDemoEvents, replayLedger, unlocks, type DemoProfile } from './demo-ledger.js';
import { loyaltyQueries } from './loyalty-repository.js';
import { generatePartnerCode } from './partner-code.js';

/** How many partner codes the DE demo customer holds ("partner codes available"). */
const DE_PARTNER_CODES = 2;

/**
 * Partner rewards the customer's tier unlocks in their country, in content order. Read from the tier
 * list, because that is where the content lists its rewards; checked against the reward rules.
 */
function partnerRewardSlugs(content: LoyaltyContent, profile: DemoProfile): string[] {
  const iso = profile.cc.toUpperCase();
  const slugs = new Set(content.tiers('en', iso).flatMap((tier) => tier.rewards.map((r) => r.slug)));
  return [...slugs].filter((slug) => {
    const rule = content.rewardRule(slug, iso);
    return rule !== undefined && rule.partnerCode && unlocks(profile.tier, rule.unlockedIn);
  });
}

/**
 * Demo loyalty states of docs/product/demo-data.md#demo-customers: DE royal gold with 250 entries and two partner codes,
 * the others (but NL, not a member) in various tiers with a few entries each. Runs at every start:
 * customers who already have an account are left alone. Each customer's ledger is written in one
 * transaction with one multi-row insert, so several instances starting together cannot double it.
 */
export async function seedDemoLoyalty(
  db: Db,
  content: LoyaltyContent,
  now: Date = new Date(),
): Promise<void> {
  const emails = demoProfiles.map((p) => `demo.${p.cc}@example.com`);
  const customers = await db
    .selectFrom('customers')
    .leftJoin('loyalty_accounts', 'loyalty_accounts.customer_id', 'customers.id')
    .select(['customers.id', 'customers.email', 'loyalty_accounts.customer_id as account'])
    .where('customers.email', 'in', emails)
    .execute();

  for (const profile of demoProfiles) {
    const customer = customers.find((c) => c.email === `demo.${profile.cc}@example.com`);
    if (!customer || customer.account) continue;
    const { rows, account } = replayLedger(
      customer.id,
      planDemoEvents(profile, content.tierRules, now),
      content.tierRules,
      now,
    );
    const codes = profile.cc === 'de' ? partnerRewardSlugs(content, profile).slice(0, DE_PARTNER_CODES) : [];

    await db.transaction().execute(async (tx) => {
      const created = await tx
        .insertInto('loyalty_accounts')
        .values({
          customer_id: customer.id,
          balance: account.balance,
          tier: account.tier,
          tier_expiration_date: account.tierExpirationDate,
          event_count: account.eventCount,
          updated_at: rows.at(-1)?.occurred_at ?? now,
        })
        .onConflict((oc) => oc.column('customer_id').doNothing())
        .returning('customer_id')
        .executeTakeFirst();
      // Another instance seeded this customer a moment ago.
      if (!created) return;
      await loyaltyQueries(tx).insertEntries(rows);
      for (const slug of codes)
        await loyaltyQueries(tx).insertPartnerCode(customer.id, slug, generatePartnerCode());
    });
  }
}
