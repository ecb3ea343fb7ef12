import type { Db } from '../../db/database.js';

/**
 * The ended sessions every instance knows of (decision 0031): session ids (the access tokens' `sid`)
 * whose access tokens are refused, each until the latest moment an access token of it could still
 * be valid. Checked on every API request from memory:
 * - `authoritative` (the set is complete) on embedded PGlite (one process: every end goes through
 *   `add`), and on a PostgreSQL server while the change listener listens (loaded again each time it
 *   starts listening, notices added as they come);
 * - otherwise (the listener is down) each check asks the database: slower, never wrong.
 */
export class EndedSessions {
  private readonly until = new Map<string, number>();
  private complete = false;
  /** Bumped at every loss: a load that began before one does not make the set complete. */
  private epoch = 0;
  private nextSweep = 0;
  /**
   * How long an end is kept: the longest an access token lives (set from the configuration at start;
   * until then a day, the longest the configuration allows).
   */
  keepMs = 86_400_000;

  constructor(
    private readonly db: Db,
    private readonly now: () => number = Date.now,
  ) {}

  get authoritative(): boolean {
    return this.complete;
  }

  /** Whether the session has ended: from memory when the set is complete, else from the database. */
  has(sid: string): boolean | Promise<boolean> {
    if (this.complete) {
      const until = this.until.get(sid);
      return until !== undefined && until > this.now();
    }
    return this.hasInDatabase(sid);
  }

  /**
   * Whether the session has ended, as the database says now, whatever this instance has heard: an end
   * made on another instance a moment ago counts before its notice arrives. An end found is kept.
   */
  async hasInDatabase(sid: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('ended_sessions')
      .select('expires_at')
      .where('sid', '=', sid)
      .executeTakeFirst();
    if (row) this.add(sid, row.expires_at.getTime());
    return row !== undefined;
  }

  add(sid: string, untilMs: number): void {
    const known = this.until.get(sid);
    if (known === undefined || known < untilMs) this.until.set(sid, untilMs);
    this.sweepIfDue();
  }

  /** A notice of an end from another connection: its row is read for its expiry. */
  async noticed(sid: string): Promise<void> {
    // Known at once (refused from now on); the exact expiry follows from the row.
    this.add(sid, this.now() + 24 * 3600_000);
    const row = await this.db
      .selectFrom('ended_sessions')
      .select('expires_at')
      .where('sid', '=', sid)
      .executeTakeFirst();
    if (row) this.until.set(sid, row.expires_at.getTime());
  }

  /** Reads every current end from the database, then serves from memory. */
  async load(): Promise<void> {
    const epoch = this.epoch;
    const rows = await this.db
      .selectFrom('ended_sessions')
      .select(['sid', 'expires_at'])
      .where('expires_at', '>', new Date(this.now()))
      .execute();
    for (const row of rows) this.add(row.sid, row.expires_at.getTime());
    if (epoch === this.epoch) this.complete = true;
  }

  /** The listener is down: ends from other instances may be missed, so the database decides. */
  lost(): void {
    this.complete = false;
    this.epoch++;
  }

  get size(): number {
    return this.until.size;
  }

  private sweepIfDue(): void {
    const at = this.now();
    if (at < this.nextSweep) return;
    this.nextSweep = at + 60_000;
    for (const [sid, until] of this.until) if (until <= at) this.until.delete(sid);
  }
}

const registry = new WeakMap<Db, EndedSessions>();

/** The ended sessions of a database (the root Db), shared by everything in this process. */
export function endedSessionsOf(db: Db): EndedSessions {
  let ended = registry.get(db);
  if (!ended) {
    ended = new EndedSessions(db);
    registry.set(db, ended);
  }
  return ended;
}
