import fp from 'fastify-plugin';
import type { AppConfig } from '../../config.js';
import { openPlaceFinder, type PlaceFinder } from '../../lib/device-description.js';
import { startExpiryTimer } from '../loyalty/index.js';
import { endedSessionsOf } from './ended-sessions.js';
import { endExpiredSessions, purgeSessionData } from './purge.js';
import { lastActiveRecorder } from './session-devices.js';

/** The PostgreSQL channel ended_sessions' trigger notifies with each ended sid (migration 0012). */
export const SESSIONS_ENDED_CHANNEL = 'roadpass_sessions_ended';

export interface SessionState {
  /** Whether the session of an access token has ended (its tokens are refused). */
  isEnded(sid: string): boolean | Promise<boolean>;
  /**
   * Whether it has ended as the database says now (one read): for introspection and UserInfo, whose
   * callers ask precisely to learn of an end, maybe made on another instance a moment ago, before its
   * notice has reached this one (the API's own check takes that notice, within a second).
   */
  isEndedNow(sid: string): Promise<boolean>;
  /** Notes that the session was used (throttled write of its last-active time). */
  used(sid: string): void;
  /** Places of network addresses (GeoIP when configured). */
  places: PlaceFinder;
}

declare module 'fastify' {
  interface FastifyInstance {
    sessionState: SessionState;
  }
}

/**
 * What every instance knows of ended sessions (decision 0031): loaded at start, kept current by this
 * process's own ends at once and by other processes' through LISTEN on SESSIONS_ENDED_CHANNEL; while
 * that listener is down each check asks the database. Also purges ended sessions, device entries and
 * security activity past their time.
 */
export const sessionsPlugin = fp<{ config: AppConfig }>(
  async (app, { config }) => {
    const ended = endedSessionsOf(app.db);
    // An access token lives at most this long (jose checks `exp` without tolerance).
    ended.keepMs = (config.accessTokenTtlSeconds + 5) * 1000;
    const log = app.log.child({ module: 'sessions' });
    const places = await openPlaceFinder(config.geoipDatabase);
    const used = lastActiveRecorder(app.db, (err) => log.warn({ err }, 'could not note a session as active'));
    // Registered after the database plugin, so this runs before the pool closes.
    app.addHook('onClose', () => used.flush());
    app.decorate('sessionState', {
      isEnded: (sid: string) => ended.has(sid),
      isEndedNow: (sid: string) => ended.hasInDatabase(sid),
      used,
      places,
    } satisfies SessionState);

    if (app.changeListener) {
      // This instance's one LISTEN connection (read-caches), straight to the server.
      let listening = false;
      let loaded: Promise<void> | undefined;
      await app.changeListener.subscribe(SESSIONS_ENDED_CHANNEL, {
        notice: (sid) => {
          ended.noticed(sid).catch((err: unknown) => log.warn({ err }, 'could not read an ended session'));
        },
        listening: () => {
          listening = true;
          loaded = ended.load();
          loaded.catch((err: unknown) => log.error({ err }, 'could not load ended sessions'));
        },
        lost: (error) => {
          ended.lost();
          if (listening) log.warn({ err: error }, 'session listener lost: sessions checked in the database');
          listening = false;
        },
      });
      await loaded;
    } else {
      // Embedded PGlite is this process's alone: every end passes through endSessions here.
      await ended.load();
    }

    if (config.messagesPurgeIntervalSeconds > 0) {
      const timer = startExpiryTimer(
        () =>
          app.backgroundJob('sessions-purge', async () => {
            const now = new Date();
            // Run-out sessions become ended ones: this instance refuses them at once, others by NOTIFY.
            const expired = await endExpiredSessions(app.db, now, ended.keepMs);
            for (const sid of expired) ended.add(sid, now.getTime() + ended.keepMs);
            const counts = await purgeSessionData(app.db, now, config.securityActivityRetentionDays);
            if (expired.length || Object.values(counts).some((n) => n > 0))
              log.info({ ...counts, expiredSessions: expired.length }, 'old sessions and activity purged');
          }),
        config.messagesPurgeIntervalSeconds * 1000,
        (err) => log.error({ err }, 'sessions purge failed'),
      );
      app.addHook('onClose', () => timer.stop());
    }
  },
  { name: 'sessions', dependencies: ['database', 'read-caches'] },
);
