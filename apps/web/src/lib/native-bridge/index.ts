export {
  checkHistory,
  clearHistory,
  copyToClipboard,
  didNavigateBackward,
  didNavigateForward,
  enableLoyaltyPushNotifications,
  isWebView,
  postToHost,
  refreshAuthToken,
  type BridgeMessageName,
  type BridgeMessages,
} from './native-bridge';
export { createNavigationDirectionTracker, type NavigationDirection } from './navigation-direction';
export {
  nativeNavigationAction,
  reportNavigation,
  useNativeNavigation,
  type NativeNavigationAction,
} from './native-navigation';
