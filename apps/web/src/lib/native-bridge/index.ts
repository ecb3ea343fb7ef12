export {
  BRIDGE_VERSION,
  checkHistory,
  clearHistory,
  copyToClipboard,
  didNavigateBackward,
  didNavigateForward,
  enableLoyaltyPushNotifications,
  isWebView,
  pointsExpiryHint,
  postToHost,
  refreshAuthToken,
  type BridgeMessageName,
  type BridgeMessages,
} from './native-bridge';
export { createNavigationDirectionTracker, type NavigationDirection } from './navigation-direction';
export {
  nativeNavigationAction,
  nativeRouteName,
  reportNavigation,
  useNativeNavigation,
  type NativeNavigationAction,
} from './native-navigation';
export { paymentHandoverAddress } from './payment-handover';
// The host side (host-bridge.ts, host-bridge-state.ts) is imported by its own path: only webviews load it.
