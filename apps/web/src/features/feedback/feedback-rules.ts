import type { RuntimeConfig, SessionUser } from '@roadpass/contracts';
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

/** docs/product/constants.md#business-constants: the thank-you message disappears after 5 seconds (or on click). */
export const FEEDBACK_SUCCESS_MS = 5000;

export type FeedbackField = 'name' | 'email' | 'message';

/** What the customer typed, as typed. */
export type FeedbackValues = Record<FeedbackField, string>;

export const emptyFeedback: FeedbackValues = { name: '', email: '', message: '' };

/**
 * What the form starts with for a signed-in customer: their name and e-mail as the app already holds
 * them (the session user), to keep or change. Nothing for a visitor, or for a field the form hides.
 */
export function prefilledFeedback(
  user: Pick<SessionUser, 'uuid' | 'firstName' | 'lastName' | 'email'> | null,
  settings: FeedbackSettings,
): FeedbackValues {
  if (!user?.uuid) return emptyFeedback;
  return {
    name: settings.showName ? [user.firstName, user.lastName].filter(Boolean).join(' ') : '',
    email: settings.showEmail ? user.email : '',
    message: '',
  };
}

/** The pictures a screenshot may be: what phones save screenshots as, and what browsers show. */
export const SCREENSHOT_TYPES = ['image/png', 'image/jpeg', 'image/webp'] as const;

/**
 * The largest screenshot, in bytes: the error report tunnel takes envelopes up to 200 kB
 * (ERROR_REPORT_MAX_BYTES, apps/server/src/modules/error-reports), and the feedback item with the
 * customer's text and the envelope's headers need the rest. A larger file is refused here, so the
 * server's 413 never reaches the customer.
 */
export const SCREENSHOT_MAX_BYTES = 150_000;

export type ScreenshotProblem = 'type' | 'size';

/** Why a chosen file cannot go with the report, or null when it can. */
export function screenshotProblem(file: { type: string; size: number }): ScreenshotProblem | null {
  if (!(SCREENSHOT_TYPES as readonly string[]).includes(file.type)) return 'type';
  if (file.size > SCREENSHOT_MAX_BYTES) return 'size';
  return null;
}

const unitFormats = new Map<string, Intl.NumberFormat>();

/** A file size as the customer's language writes it: 69 bytes, 42 kB, 150 ko (fr), 2.4 MB. */
export function formatFileSize(bytes: number, language: string): string {
  const [unit, value, digits] =
    bytes < 1000
      ? (['byte', bytes, 0] as const)
      : bytes < 1_000_000
        ? (['kilobyte', Math.ceil(bytes / 1000), 0] as const)
        : (['megabyte', bytes / 1_000_000, 1] as const);
  const key = `${language}|${unit}`;
  let format = unitFormats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(language, { style: 'unit', unit, maximumFractionDigits: digits });
    unitFormats.set(key, format);
  }
  return format.format(value);
}

/** The fields the form shows, in form order, and whether each is required. Hidden is never required. */
export function feedbackFields(settings: FeedbackSettings): { field: FeedbackField; required: boolean }[] {
  return [
    ...(settings.showName ? [{ field: 'name' as const, required: settings.isNameRequired }] : []),
    ...(settings.showEmail ? [{ field: 'email' as const, required: settings.isEmailRequired }] : []),
    { field: 'message', required: true },
  ];
}

/**
 * docs/product/account-rules.md#validation-rules: the required fields left empty, in form order. The message counts as missing only when
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

/** docs/product/account-rules.md#validation-rules: the values trimmed; hidden and empty optional fields are left out. E-mail format not checked. */
export function feedbackReport(values: FeedbackValues, settings: FeedbackSettings): FeedbackReport {
  const name = settings.showName ? values.name.trim() : '';
  const email = settings.showEmail ? values.email.trim() : '';
  return { message: values.message.trim(), ...(name && { name }), ...(email && { email }) };
}
