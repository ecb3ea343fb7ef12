import { create } from 'zustand';
import type { PushNotificationFlags, SafeAreaInsets } from './host-bridge';

/** What the host app has told the app (webview mode); kept apart so the shell reads it cheaply. */
export interface HostBridgeState {
  /** A refreshAuthToken request waits for the host's answer. */
  refreshing: boolean;
  /** The host gave no token in time or refused: the customer is told to reopen or ask again. */
  expired: boolean;
  insets: SafeAreaInsets | null;
  push: PushNotificationFlags | null;
}

export const useHostBridge = create<HostBridgeState>()(() => ({
  refreshing: false,
  expired: false,
  insets: null,
  push: null,
}));
