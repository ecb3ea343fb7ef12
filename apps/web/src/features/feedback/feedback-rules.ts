import type { RuntimeConfig } from '@roadpass/contracts';
import type { FeedbackReport } from '@/lib/errors/feedback-sender';

/** Which of name and e-mail the form asks for, and whether they are required (/config.json). */
export type FeedbackSettings = NonNullable<RuntimeConfig['feedback']>;

/** Without a setting (an older server): name and e-mail asked for, neither required (Sentry's defaults). */
export const defaultFeedbackSettings: FeedbackSettings = {
  showName: true,
  showEmail: true,
  isNameRequired: false,
  isEmailRequired: false,
};

/** Spec §9: the thank-you message disappears after 5 seconds (or on click). */
export const FEEDBACK_SUCCESS_MS = 5000;

export type FeedbackField = 'name' | 'email' | 'message';

/** What the customer typed, as typed. */
export type FeedbackValues = Record<FeedbackField, string>;

export const emptyFeedback: FeedbackValues = { name: '', email: '', message: '' };

/** The fields the form shows, in form order, and whether each is required. Hidden is never required. */
export function feedbackFields(settings: FeedbackSettings): { field: FeedbackField; required: boolean }[] {
  return [
    ...(settings.showName ? [{ field: 'name' as const, required: settings.isNameRequired }] : []),
    ...(settings.showEmail ? [{ field: 'email' as const, required: settings.isEmailRequired }] : []),
    { field: 'message', required: true },
  ];
}

/**
 * Spec §5: the required fields left empty, in form order. The message counts as missing only when
 * nothing was typed; a message of spaces alone is the sender's to refuse ("Unable to submit feedback
 * with empty message"). A name or e-mail of spaces alone is missing.
 */
export function missingFields(values: FeedbackValues, settings: FeedbackSettings): FeedbackField[] {
  return feedbackFields(settings)
    .filter(
      ({ field, required }) =>
        required && (field === 'message' ? values.message : values[field].trim()) === '',
    )
    .map(({ field }) => field);
}

/** Spec §5: the values trimmed; hidden and empty optional fields are left out. E-mail format not checked. */
export function feedbackReport(values: FeedbackValues, settings: FeedbackSettings): FeedbackReport {
  const name = settings.showName ? values.name.trim() : '';
  const email = settings.showEmail ? values.email.trim() : '';
  return { message: values.message.trim(), ...(name && { name }), ...(email && { email }) };
}
