import { useHostBridge } from './host-bridge-state';
import { BRIDGE_VERSION, refreshAuthToken } from './native-bridge';

export { useHostBridge };

/** Edge distances in CSS pixels the host's own bars cover (notch, home indicator). */
export interface SafeAreaInsets {
  top: number;
  right: number;
  bottom: number;
  left: number;
}

/** What the host says about push notifications: allowed at all, and for the loyalty programme. */
export interface PushNotificationFlags {
  enabled: boolean;
  loyalty: boolean;
}

/** The messages the host may send (docs/native-bridge.md); anything else is ignored. */
export type HostMessage =
  | { type: 'authToken'; token: string; requestId?: string }
  | { type: 'authTokenRefused'; requestId?: string }
  | ({ type: 'safeAreaInsets' } & SafeAreaInsets)
  | ({ type: 'pushNotificationFlags' } & PushNotificationFlags);

/** A JWT's characters (base64url and dots), at most 16 kB. */
const tokenPattern = /^[\w.~+/=-]{1,16384}$/;
const isInset = (value: unknown) => typeof value === 'number' && value >= 0 && value <= 500;
const isOptionalId = (value: unknown) =>
  value === undefined || (typeof value === 'string' && value.length <= 64);

/**
 * Reads one message from the host: an object or its JSON text with `v: 1` and a known `type` whose
 * fields all have the right type. Returns null for anything else (the caller logs and ignores it).
 */
export function parseHostMessage(raw: unknown): HostMessage | null {
  let value = raw;
  if (typeof raw === 'string') {
    try {
      value = JSON.parse(raw) as unknown;
    } catch {
      return null;
    }
  }
  if (typeof value !== 'object' || value === null) return null;
  const m = value as Record<string, unknown>;
  if (m.v !== BRIDGE_VERSION || !isOptionalId(m.requestId)) return null;
  const requestId = m.requestId === undefined ? {} : { requestId: m.requestId as string };
  switch (m.type) {
    case 'authToken':
      return typeof m.token === 'string' && tokenPattern.test(m.token)
        ? { type: 'authToken', token: m.token, ...requestId }
        : null;
    case 'authTokenRefused':
      return { type: 'authTokenRefused', ...requestId };
    case 'safeAreaInsets':
      return [m.top, m.right, m.bottom, m.left].every(isInset)
        ? {
            type: 'safeAreaInsets',
            top: m.top as number,
            right: m.right as number,
            bottom: m.bottom as number,
            left: m.left as number,
          }
        : null;
    case 'pushNotificationFlags':
      return typeof m.enabled === 'boolean' && typeof m.loyalty === 'boolean'
        ? { type: 'pushNotificationFlags', enabled: m.enabled, loyalty: m.loyalty }
        : null;
    default:
      return null;
  }
}

/** How long the app waits for the host's answer to refreshAuthToken (then: the expired state). */
export const HOST_TOKEN_TIMEOUT_MS = 10_000;

interface PendingRefresh {
  id: string;
  promise: Promise<string>;
  settle(token: string | null): void;
}

let pending: PendingRefresh | null = null;
let requestCount = 0;
let applyToken: (token: string) => void = () => {};

/**
 * Asks the host for a new token (one request at a time; callers share it). Resolves with the token;
 * rejects when the host refuses, has no handler or does not answer within `timeoutMs`, and then
 * `expired` is set.
 */
export function requestHostToken(timeoutMs = HOST_TOKEN_TIMEOUT_MS): Promise<string> {
  if (pending) return pending.promise;
  const id = `r${++requestCount}`;
  let settle!: (token: string | null) => void;
  const promise = new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => settle(null), timeoutMs);
    settle = (token) => {
      clearTimeout(timer);
      pending = null;
      // Offline the host cannot renew its session either: that is no expiry; asked again once online.
      const offline = !token && !navigator.onLine;
      useHostBridge.setState({ refreshing: false, expired: !token && !offline });
      if (offline)
        window.addEventListener('online', () => void requestHostToken().catch(() => {}), { once: true });
      if (token) resolve(token);
      else reject(new Error('The host app gave no token'));
    };
  });
  pending = { id, promise, settle };
  useHostBridge.setState({ refreshing: true });
  if (!refreshAuthToken(id)) settle(null);
  return promise;
}

/** Applies one host message; returns whether it was taken. */
export function receiveHostMessage(raw: unknown): boolean {
  const message = parseHostMessage(raw);
  const requestId = message && 'requestId' in message ? message.requestId : undefined;
  if (!message || (requestId !== undefined && requestId !== pending?.id)) {
    console.warn('[native-bridge] ignored a message from the host app', raw);
    return false;
  }
  switch (message.type) {
    case 'authToken':
      applyToken(message.token);
      if (pending) pending.settle(message.token);
      else useHostBridge.setState({ expired: false });
      break;
    case 'authTokenRefused':
      pending?.settle(null);
      break;
    case 'safeAreaInsets': {
      const { type: _, ...insets } = message;
      useHostBridge.setState({ insets });
      for (const [side, px] of Object.entries(insets))
        document.documentElement.style.setProperty(`--safe-${side}`, `${px}px`);
      break;
    }
    case 'pushNotificationFlags':
      useHostBridge.setState({ push: { enabled: message.enabled, loyalty: message.loyalty } });
  }
  return true;
}

declare global {
  interface Window {
    /** The host's new access token: the token itself, or `{v:1, type:'authToken', token}`. */
    setAuthToken?: (token: unknown) => void;
    /** The answer to refreshAuthToken: `{v:1, type:'authToken'|'authTokenRefused', requestId, token?}`. */
    answerAuthTokenRefresh?: (message: unknown) => void;
    setSafeAreaInsets?: (message: unknown) => void;
    setPushNotificationFlags?: (message: unknown) => void;
  }
}

/**
 * Installs the host's global setters (webview mode only). `onToken` receives every accepted token.
 * A bare token string given to setAuthToken (the first protocol) is still understood.
 */
export function installHostSetters(onToken: (token: string) => void): void {
  applyToken = onToken;
  /** A setter taking only some message types; any other message is ignored and logged. */
  const setter =
    (...types: HostMessage['type'][]) =>
    (message: unknown) => {
      const type = parseHostMessage(message)?.type;
      if (type && types.includes(type)) receiveHostMessage(message);
      else console.warn('[native-bridge] ignored a message from the host app', message);
    };
  const setToken = setter('authToken');
  window.setAuthToken = (token) =>
    setToken(
      typeof token === 'string' && tokenPattern.test(token)
        ? { v: BRIDGE_VERSION, type: 'authToken', token }
        : token,
    );
  window.answerAuthTokenRefresh = setter('authToken', 'authTokenRefused');
  window.setSafeAreaInsets = setter('safeAreaInsets');
  window.setPushNotificationFlags = setter('pushNotificationFlags');
}

/** Only for tests: removes the setters installHostSetters put on window. */
export function removeHostSetters(): void {
  delete window.setAuthToken;
  delete window.answerAuthTokenRefresh;
  delete window.setSafeAreaInsets;
  delete window.setPushNotificationFlags;
}

/** Only for tests: forgets a pending request and the state. */
export function resetHostBridge(): void {
  pending = null;
  applyToken = () => {};
  useHostBridge.setState({ refreshing: false, expired: false, insets: null, push: null });
}
