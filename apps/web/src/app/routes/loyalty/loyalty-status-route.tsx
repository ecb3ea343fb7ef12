import { optionalPart } from '@/components/optional-part';
import { LoyaltyStatus } from '@/features/loyalty-status/components/loyalty-status';
import { useAppStore } from '@/lib/state/app-store';

// Webview only (the host's push flags): not part of the status page's first load on the web. Left
// out, not fatal, when its code cannot be downloaded (the connection gone while it loads); fetched
// again once online.
const PushOffer = optionalPart<object>(() =>
  import('@/features/webview/push-offer').then((module) => ({ default: module.PushOffer })),
);

/** `/status`: points and tier status (docs/product/addresses-and-routes.md#screens-and-routes). Keep it light: it is a first page. */
export default function LoyaltyStatusRoute() {
  const isWebView = useAppStore((state) => state.isWebView);
  return <LoyaltyStatus forMembers={isWebView ? <PushOffer /> : null} />;
}
