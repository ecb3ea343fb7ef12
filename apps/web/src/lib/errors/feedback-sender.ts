/** A file sent with a report (the customer's screenshot), as the error reporting SDK attaches it. */
export interface FeedbackAttachment {
  filename: string;
  data: Uint8Array;
  contentType: string;
}

/** One "Report a Bug" submission, its values already trimmed (docs/product/account-rules.md#validation-rules). */
export interface FeedbackReport {
  message: string;
  name?: string;
  email?: string;
  attachment?: FeedbackAttachment;
}

/** Sends a report; resolves with its id once the server took it, rejects when it did not. */
export type FeedbackSender = (report: FeedbackReport) => Promise<string>;

let sender: FeedbackSender | null = null;

/**
 * Where feedback goes: the error reporting SDK, set by the consent manager together with the error
 * report sink (null again when consent is withdrawn). The feedback form never imports the SDK itself.
 */
export function setFeedbackSender(next: FeedbackSender | null): void {
  sender = next;
}

/** Sends a report the way error reports go; rejects at once when error reporting is off. */
export function sendFeedback(report: FeedbackReport): Promise<string> {
  return sender ? sender(report) : Promise.reject(new Error('Error reporting is off: no feedback sender'));
}
