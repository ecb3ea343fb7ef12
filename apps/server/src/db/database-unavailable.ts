/** Retry-After of a 503 for such a failure: a restart or failover takes seconds. */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 2;

/**
 * Whether an error means the database cannot be reached for now (it restarts, fails over, refuses
 * connections, or a pooler in front of it lost its server), rather than that a statement is wrong.
 * Such a failure is answered 503 with Retry-After instead of 500 (plugins/errors.ts; docs/operations.md):
 * the call may simply be made again, and an operator's dashboard tells an outage from a bug.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (!error || typeof error !== 'object') return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (typeof code === 'string') {
    // Node's socket errors, on connecting or on a connection in use.
    if (SOCKET_CODES.has(code)) return true;
    // SQLSTATE class 08 (connection exception), 57P01–57P03 (the server shuts down, crashed, or
    // cannot take connections yet), 53300 (too many connections).
    if (/^08[0-9A-Z]{3}$/.test(code) || /^57P0[1-3]$/.test(code) || code === '53300') return true;
  }
  return typeof message === 'string' && LOST_CONNECTION_MESSAGES.some((text) => message.includes(text));
}

const SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/**
 * What node-postgres and its pool throw, without a code, when a connection is lost or not made
 * ("Connection terminated unexpectedly", "… due to connection timeout").
 */
const LOST_CONNECTION_MESSAGES = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'Client has encountered a connection error and is not queryable',
  // The embedded database's worker thread ended (pglite-client.ts).
  "the embedded database's worker thread exited",
];
