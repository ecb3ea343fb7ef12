import { createHash } from 'node:crypto';
import type { Db } from '../db/database.js';

export interface ThrottlePolicy {
  /** Window in which failed attempts count. */
  windowSeconds: number;
  /** Failed attempts for one e-mail address within the window before further attempts are refused. */
  maxPerEmail: number;
  /** Failed attempts from one IP address within the window before further attempts are refused. */
  maxPerIp: number;
}

export const defaultThrottlePolicy: ThrottlePolicy = { windowSeconds: 15 * 60, maxPerEmail: 5, maxPerIp: 20 };

export type ThrottleVerdict = { allowed: true } | { allowed: false; retryAfterSeconds: number };

/** One-way key of a subject, so the table never holds what was typed into the e-mail field. */
const subjectOf = (scope: 'email' | 'ip', value: string) =>
  createHash('sha256')
    .update(`${scope}:${scope === 'email' ? value.trim().toLowerCase() : value}`)
    .digest('hex');

/**
 * Failed sign-in attempts counted in the database (table login_attempts), so every instance sees the
 * same counts. After `maxPerEmail` failures for one e-mail (or `maxPerIp` from one IP address) within
 * the window, attempts are refused until enough of those failures have left the window. A successful
 * sign-in clears the e-mail's failures.
 */
export function createLoginThrottle(
  db: Db,
  policy: ThrottlePolicy = defaultThrottlePolicy,
  now: () => number = Date.now,
) {
  const windowStart = () => new Date(now() - policy.windowSeconds * 1000);

  /** When the failure that keeps the subject over its limit leaves the window, in seconds from now. */
  async function blockedFor(scope: 'email' | 'ip', subject: string, max: number): Promise<number> {
    const recent = await db
      .selectFrom('login_attempts')
      .select('attempted_at')
      .where('scope', '=', scope)
      .where('subject', '=', subject)
      .where('attempted_at', '>', windowStart())
      .orderBy('attempted_at', 'desc')
      .limit(max)
      .execute();
    if (recent.length < max) return 0;
    const oldestCounted = new Date(recent[max - 1]!.attempted_at).getTime();
    return Math.max(1, Math.ceil((oldestCounted + policy.windowSeconds * 1000 - now()) / 1000));
  }

  return {
    async check(email: string, ip: string): Promise<ThrottleVerdict> {
      const [byEmail, byIp] = await Promise.all([
        email ? blockedFor('email', subjectOf('email', email), policy.maxPerEmail) : Promise.resolve(0),
        blockedFor('ip', subjectOf('ip', ip), policy.maxPerIp),
      ]);
      const wait = Math.max(byEmail, byIp);
      return wait > 0 ? { allowed: false, retryAfterSeconds: wait } : { allowed: true };
    },

    async recordFailure(email: string, ip: string): Promise<void> {
      const at = new Date(now());
      const rows: { scope: 'email' | 'ip'; subject: string; attempted_at: Date }[] = [
        { scope: 'ip', subject: subjectOf('ip', ip), attempted_at: at },
      ];
      if (email) rows.push({ scope: 'email', subject: subjectOf('email', email), attempted_at: at });
      await db.insertInto('login_attempts').values(rows).execute();
      // Opportunistic clean-up: failures older than the window no longer count for anyone.
      await db.deleteFrom('login_attempts').where('attempted_at', '<', windowStart()).execute();
    },

    async recordSuccess(email: string): Promise<void> {
      await db
        .deleteFrom('login_attempts')
        .where('scope', '=', 'email')
        .where('subject', '=', subjectOf('email', email))
        .execute();
    },
  };
}

export type LoginThrottle = ReturnType<typeof createLoginThrottle>;
