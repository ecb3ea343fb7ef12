import { nativeRouteName, useNativeNavigation } from './native-navigation';

/**
 * docs/product/addresses-and-routes.md#screens-and-routes: every page, account pages included, tells
 * the native app where it went (issue 17). Rendered only inside the native apps, as a chunk of its
 * own: a phone browser never downloads it (decision 0014).
 */
export default function NativeNavigationReporter() {
  useNativeNavigation(nativeRouteName);
  return null;
}
