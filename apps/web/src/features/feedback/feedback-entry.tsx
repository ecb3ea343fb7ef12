import { optionalPart } from '@/components/optional-part';
import { useRuntimeServices } from '@/lib/runtime-services';
import { useAppStore } from '@/lib/state/app-store';

// The widget is a chunk of its own, fetched only once error reporting runs with consent.
const FeedbackWidget = optionalPart(() => import('./feedback-widget'));

/**
 * "Report a Bug" in the frame's footer: only while the customer consents to error reporting (the
 * consent manager says so through the app store), since submissions go where error reports go.
 */
export function FeedbackEntry() {
  const allowed = useAppStore((s) => s.errorReportingAllowed);
  const settings = useRuntimeServices()?.config?.feedback;
  if (!allowed) return null;
  return <FeedbackWidget settings={settings} />;
}
