import { captureException, captureFeedback, getClient, init } from '@sentry/browser';
import { apiPaths, type RuntimeConfig } from '@roadpass/contracts';
import type { FeedbackSender } from '@/lib/errors/feedback-sender';

/** How long a submission may wait for the tunnel's answer (the SDK's own sendFeedback waits as long). */
const FEEDBACK_TIMEOUT_MS = 30_000;

/**
 * The error reporting SDK (Sentry), a lazy chunk imported only after error-reporting consent. Envelopes
 * go to the server's tunnel (apiPaths.errorReportEnvelope), never to a third-party host.
 * docs/product/errors.md#error-catalogue: `allowed` is asked again before every send; an event found without consent is dropped, a
 * critical error is logged and reporting is switched off.
 */
export function startErrorReporting(
  config: RuntimeConfig,
  allowed: () => boolean,
): (error: unknown, where: string) => void {
  const dsn = config.errorReporting.dsn;
  if (!dsn) return () => undefined;
  let disabled = false;
  init({
    dsn,
    tunnel: apiPaths.errorReportEnvelope,
    environment: config.environment,
    tracesSampleRate: config.errorReporting.tracesSampleRate,
    // Errors only: no automatic global handlers beyond the SDK defaults, no session replay.
    sendDefaultPii: false,
    beforeSend(event) {
      if (disabled) return null;
      if (!allowed()) {
        disabled = true;
        console.error('CRITICAL: error reporting tried to send without consent; reporting is disabled');
        void getClient()?.close(0);
        return null;
      }
      return event;
    },
  });
  return (error, where) => {
    if (!disabled && allowed()) captureException(error, { tags: { where } });
  };
}

/**
 * "Report a Bug" through the running SDK: a `feedback` envelope item to the same tunnel, resolved once
 * the tunnel answered 2xx. The SDK's own `sendFeedback` does the same but pulls in its 12 kB widget
 * module; `captureFeedback` is the part we need. A screenshot goes in the same envelope as an
 * `attachment` item (as Sentry's own widget sends one). Feedback events skip `beforeSend`, so consent
 * is asked here, before each send (docs/product/errors.md#error-catalogue).
 */
export function createFeedbackSender(allowed: () => boolean): FeedbackSender {
  return ({ message, name, email, attachment }) => {
    // docs/product/account-rules.md#validation-rules: an empty message is refused with the widget's own words.
    if (!message) return Promise.reject(new Error('Unable to submit feedback with empty message'));
    const client = getClient();
    if (!client || !allowed()) return Promise.reject(new Error('Error reporting is off'));
    const eventId = captureFeedback(
      { message, name, email, url: window.location.href, source: 'widget' },
      attachment ? { attachments: [attachment] } : {},
    );
    return new Promise<string>((resolve, reject) => {
      const timeout = window.setTimeout(() => {
        stop();
        reject(new Error('No answer from the error report tunnel'));
      }, FEEDBACK_TIMEOUT_MS);
      const stop = client.on('afterSendEvent', (event, response) => {
        if (event.event_id !== eventId) return;
        window.clearTimeout(timeout);
        stop();
        const status = response?.statusCode;
        if (status !== undefined && status >= 200 && status < 300) resolve(eventId);
        else reject(new Error(`The error report tunnel answered ${status ?? 'nothing'}`));
      });
    });
  };
}
