import { captureException, getClient, init } from '@sentry/browser';
import { apiPaths, type RuntimeConfig } from '@roadpass/contracts';

/**
 * The error reporting SDK (Sentry), a lazy chunk imported only after error-reporting consent. Envelopes
 * go to the server's tunnel (apiPaths.errorReportEnvelope), never to a third-party host.
 * Spec §8: `allowed` is asked again before every send; an event found without consent is dropped, a
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
