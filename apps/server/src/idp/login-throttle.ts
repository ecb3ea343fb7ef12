import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Db } from '../db/database.js';

/** A limit: at most `max` failures within `windowSeconds`. */
export interface FailureLimit {
  max: number;
  windowSeconds: number;
}

export interface ThrottlePolicy {
  /**
   * Failures for one account from clients that never signed in to it (no device cookie), all such
   * clients together: what an attacker guessing one customer's password gets.
   */
  unknownClientsPerAccount: FailureLimit[];
  /** Failures from one device that signed in to this account before: the customer's own budget. */
  perKnownDevice: FailureLimit;
  /** Failures from one IP address, whatever the account. */
  perIp: FailureLimit;
}

/**
 * Decision 0010: unknown clients share 10 guesses an hour per account and at most 100 a day (NIST
 * 800-63B's ceiling); a device the customer signed in with keeps 10 per 15 minutes of its own, so an
 * attacker can lock out nobody's own phone; one address gets 20 failures per 15 minutes.
 */
export const defaultThrottlePolicy: ThrottlePolicy = {
  unknownClientsPerAccount: [
    { max: 10, windowSeconds: 3600 },
    { max: 100, windowSeconds: 24 * 3600 },
  ],
  perKnownDevice: { max: 10, windowSeconds: 15 * 60 },
  perIp: { max: 20, windowSeconds: 15 * 60 },
};

export type ThrottleVerdict = { allowed: true } | { allowed: false; retryAfterSeconds: number };

/** Who is trying: the typed e-mail, the client's address and, if it sent one, its device cookie value. */
export interface SignInAttempt {
  email: string;
  ip: string;
  deviceCookie?: string | undefined;
}

type Scope = 'account' | 'device' | 'ip';

const normaliseEmail = (email: string) => email.trim().toLowerCase();

/** One-way key of a subject, so the table never holds what was typed into the e-mail field. */
const subjectOf = (scope: Scope, value: string) =>
  createHash('sha256').update(`${scope}:${value}`).digest('hex');

export const DEVICE_COOKIE = 'roadpass_device';
/** A device stays known for a year after its last successful sign-in. */
export const DEVICE_COOKIE_MAX_AGE_SECONDS = 365 * 24 * 3600;

/**
 * Device cookies (OWASP's "device cookie" pattern): after a successful sign-in the browser gets a
 * random id bound to the account by an HMAC, so only someone who knew the password holds one.
 */
export function createDeviceCookies(key: string) {
  const macOf = (id: string, email: string) =>
    createHmac('sha256', key)
      .update(`${id}:${normaliseEmail(email)}`)
      .digest('base64url');
  return {
    /** A new cookie value for this account. */
    issue(email: string): string {
      const id = randomBytes(16).toString('base64url');
      return `${id}.${macOf(id, email)}`;
    },
    /** The device id when the value is a device cookie of this account; undefined otherwise. */
    deviceOf(value: string | undefined, email: string): string | undefined {
      const [id, mac, ...rest] = (value ?? '').split('.');
      if (!id || !mac || rest.length > 0 || id.length > 64) return undefined;
      const expected = Buffer.from(macOf(id, email));
      const given = Buffer.from(mac);
      return expected.length === given.length && timingSafeEqual(expected, given) ? id : undefined;
    },
  };
}

export type DeviceCookies = ReturnType<typeof createDeviceCookies>;

/**
 * Failed sign-in attempts counted in the database (table login_attempts), so every instance sees the
 * same counts. An attempt is refused, before the password is checked, while any limit that applies to
 * it is full; the wait is until enough of those failures have left their window. A successful sign-in
 * clears the failures of its device (or, from an unknown client, of the account).
 */
export function createLoginThrottle(
  db: Db,
  devices: DeviceCookies,
  policy: ThrottlePolicy = defaultThrottlePolicy,
  now: () => number = Date.now,
) {
  const longestWindow = Math.max(
    policy.perIp.windowSeconds,
    policy.perKnownDevice.windowSeconds,
    ...policy.unknownClientsPerAccount.map((limit) => limit.windowSeconds),
  );

  /** The subjects an attempt counts against, each with the limits that apply. */
  function subjectsOf(attempt: SignInAttempt) {
    const subjects: { scope: Scope; subject: string; limits: FailureLimit[] }[] = [
      { scope: 'ip', subject: subjectOf('ip', attempt.ip), limits: [policy.perIp] },
    ];
    if (!attempt.email) return { subjects, device: undefined };
    const email = normaliseEmail(attempt.email);
    const device = devices.deviceOf(attempt.deviceCookie, email);
    subjects.push(
      device
        ? { scope: 'device', subject: subjectOf('device', device), limits: [policy.perKnownDevice] }
        : { scope: 'account', subject: subjectOf('account', email), limits: policy.unknownClientsPerAccount },
    );
    return { subjects, device };
  }

  /** When the failure that keeps the subject at its limit leaves the window, in seconds from now. */
  async function blockedFor(scope: Scope, subject: string, limit: FailureLimit): Promise<number> {
    const recent = await db
      .selectFrom('login_attempts')
      .select('attempted_at')
      .where('scope', '=', scope)
      .where('subject', '=', subject)
      .where('attempted_at', '>', new Date(now() - limit.windowSeconds * 1000))
      .orderBy('attempted_at', 'desc')
      .limit(limit.max)
      .execute();
    if (recent.length < limit.max) return 0;
    const oldestCounted = new Date(recent[limit.max - 1]!.attempted_at).getTime();
    return Math.max(1, Math.ceil((oldestCounted + limit.windowSeconds * 1000 - now()) / 1000));
  }

  return {
    async check(attempt: SignInAttempt): Promise<ThrottleVerdict> {
      const waits = await Promise.all(
        subjectsOf(attempt).subjects.flatMap(({ scope, subject, limits }) =>
          limits.map((limit) => blockedFor(scope, subject, limit)),
        ),
      );
      const wait = Math.max(0, ...waits);
      return wait > 0 ? { allowed: false, retryAfterSeconds: wait } : { allowed: true };
    },

    async recordFailure(attempt: SignInAttempt): Promise<void> {
      const at = new Date(now());
      await db
        .insertInto('login_attempts')
        .values(
          subjectsOf(attempt).subjects.map(({ scope, subject }) => ({ scope, subject, attempted_at: at })),
        )
        .execute();
      // Opportunistic clean-up: failures older than every window no longer count for anyone.
      await db
        .deleteFrom('login_attempts')
        .where('attempted_at', '<', new Date(now() - longestWindow * 1000))
        .execute();
    },

    /** Whether the attempt comes with a device cookie of its account (a device that signed in before). */
    knowsDevice(attempt: SignInAttempt): boolean {
      return subjectsOf(attempt).device !== undefined;
    },

    /** Clears what the successful client had against it, and hands out its device cookie value. */
    async recordSuccess(attempt: SignInAttempt): Promise<string> {
      const { subjects } = subjectsOf(attempt);
      const own = subjects.find((s) => s.scope !== 'ip');
      if (own) {
        await db
          .deleteFrom('login_attempts')
          .where('scope', '=', own.scope)
          .where('subject', '=', own.subject)
          .execute();
      }
      return devices.issue(attempt.email);
    },
  };
}

export type LoginThrottle = ReturnType<typeof createLoginThrottle>;
