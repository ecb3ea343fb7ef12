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
export { paymentHandoverAddress } from './payment-handover';
// The host side (host-bridge.ts, host-bridge-state.ts) and the navigation reporter
// (native-navigation-reporter.tsx) are imported by their own paths: only webviews load them.
