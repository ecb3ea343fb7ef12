import { useAppStore } from '@/lib/state/app-store';

/**
 * The messages the app sends to the native host app (docs/product/api.md#calls native bridge, docs/product/webview.md#native-bridge) and
 * their payloads; docs/native-bridge.md describes the protocol for the app developers.
 */
export interface BridgeMessages {
  /** Asks the host for a fresh access token; it answers through window.answerAuthTokenRefresh. */
  refreshAuthToken: { requestId: string };
  copyToClipboard: { text: string };
  /** Drops the host's back stack for the webview: the webview becomes closeable. */
  clearHistory: Record<string, never>;
  /** Asks the host to look at the webview's history again (e.g. to update its back button). */
  checkHistory: Record<string, never>;
  didNavigateBackward: { path: string };
  didNavigateForward: { path: string };
  enableLoyaltyPushNotifications: Record<string, never>;
  /**
   * Points expire soon and loyalty notifications are on: the host shows a notification, once per `key`
   * (one expiry date and reminder kind), with this title and text (docs/native-bridge.md).
   */
  pointsExpiryHint: { key: string; points: number; expiresAt: string; title: string; text: string };
}

export type BridgeMessageName = keyof BridgeMessages;

type IosMessageHandler = { postMessage(payload: unknown): void };

declare global {
  interface Window {
    /** iOS: WKWebView script message handlers, one per message name. */
    webkit?: { messageHandlers?: Partial<Record<string, IosMessageHandler>> };
    /** Android: the interface object the host injects (addJavascriptInterface); methods take JSON. */
    RoadpassAndroid?: Partial<Record<BridgeMessageName, (payloadJson: string) => void>>;
  }
}

/** The protocol's version, sent as `v` in every message both ways (docs/native-bridge.md). */
export const BRIDGE_VERSION = 1;

/** docs/product/addresses-and-routes.md#screens-and-routes: set at start from is_webview=true or a user agent containing 'webview'. */
export function isWebView(): boolean {
  return useAppStore.getState().isWebView;
}

/**
 * Sends one message to the host app. Outside a webview it does nothing. Returns whether a host handler
 * took the message; a missing handler or one that throws is logged, never passed on to the caller.
 */
export function postToHost<Name extends BridgeMessageName>(
  name: Name,
  payload: BridgeMessages[Name],
): boolean {
  if (!isWebView()) return false;
  const message = { v: BRIDGE_VERSION, type: name, ...payload };
  try {
    const ios = window.webkit?.messageHandlers?.[name];
    if (ios) {
      ios.postMessage(message);
      return true;
    }
    const android = window.RoadpassAndroid;
    const method = android?.[name];
    if (android && typeof method === 'function') {
      // Injected Java methods must be called on their object.
      method.call(android, JSON.stringify(message));
      return true;
    }
  } catch (error) {
    console.error(`[native-bridge] the host app failed on ${name}`, error);
    return false;
  }
  console.warn(`[native-bridge] the host app has no handler for ${name}`);
  return false;
}

export const refreshAuthToken = (requestId: string): boolean => postToHost('refreshAuthToken', { requestId });
export const clearHistory = (): boolean => postToHost('clearHistory', {});
export const checkHistory = (): boolean => postToHost('checkHistory', {});
export const enableLoyaltyPushNotifications = (): boolean => postToHost('enableLoyaltyPushNotifications', {});
export const pointsExpiryHint = (hint: BridgeMessages['pointsExpiryHint']): boolean =>
  postToHost('pointsExpiryHint', hint);
export const didNavigateForward = (path: string = window.location.pathname): boolean =>
  postToHost('didNavigateForward', { path });
export const didNavigateBackward = (path: string = window.location.pathname): boolean =>
  postToHost('didNavigateBackward', { path });

/** For browsers without the async Clipboard API (or without permission): copy through a selection. */
function copyThroughSelection(text: string): boolean {
  if (typeof document.execCommand !== 'function') return false;
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.style.position = 'fixed';
  area.style.opacity = '0';
  document.body.append(area);
  area.select();
  try {
    return document.execCommand('copy');
  } catch {
    return false;
  } finally {
    area.remove();
  }
}

/**
 * Copies text: in a webview through the host app (webviews often block the web clipboard), otherwise,
 * or when the host has no handler, with the browser's clipboard. Resolves with whether it worked.
 */
export async function copyToClipboard(text: string): Promise<boolean> {
  if (postToHost('copyToClipboard', { text })) return true;
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return copyThroughSelection(text);
  }
}
