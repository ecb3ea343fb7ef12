import { useCallback, useEffect, useId, useLayoutEffect, useRef, useState } from 'react';
import { useTranslation } from '@/lib/i18n/use-translation';
import type { RuntimeConfig } from '@roadpass/contracts';
import { SwitchField } from '@/components/form/switch-field';
import { serverErrorHelper, type HttpClient } from '@/lib/http';
import { setFeedbackSender } from '@/lib/errors/feedback-sender';
import { reportError, setErrorReportSink } from '@/lib/errors/report-error';
import { useCoveredArea } from '@/lib/layout/use-covered-area';
import { useAppStore } from '@/lib/state/app-store';
import {
  allConsent,
  consentCookie,
  consentFromQuery,
  effectiveConsent,
  needsReload,
  noConsent,
  optOutChanged,
  readConsentCookie,
  type ConsentChoice,
} from './consent-rules';
import { loadTagManager } from './tag-manager';
import './consent.css';

interface Props {
  config: RuntimeConfig;
  http: HttpClient;
  /** Grows each time the customer asks for the privacy settings again. */
  settingsRequest: number;
  /** The query of the address the app started on (a redirect may have replaced it since). */
  startSearch?: string;
}

/** The stored choice: the webview host's (consent query parameter) first, then the cookie. */
const storedChoice = (startSearch: string): ConsentChoice | null =>
  consentFromQuery(startSearch) ?? readConsentCookie(document.cookie);

/**
 * The consent manager (docs/product/states.md#states-and-transitions): a banner until the customer chooses (accept all, deny all, or
 * choose and save), reachable again from "Privacy settings". After each choice the consent services
 * are read again: the tag manager loads with analytics consent, the error reporting SDK with
 * error-reporting consent; analytics withdrawn reloads the page. Tracking opt-out counts as no consent.
 */
export default function ConsentManager({
  config,
  http,
  settingsRequest,
  startSearch = window.location.search,
}: Props) {
  const trackingOptOut = useAppStore((s) => s.trackingOptOut);
  const setErrorReportingAllowed = useAppStore((s) => s.setErrorReportingAllowed);
  const [choice, setChoice] = useState<ConsentChoice | null>(() => storedChoice(startSearch));
  const [open, setOpen] = useState(choice === null);
  const [customizing, setCustomizing] = useState(false);
  const [draft, setDraft] = useState<ConsentChoice>(choice ?? noConsent);
  const effective = useRef(effectiveConsent(choice, trackingOptOut));

  // The consent services, read again whenever the effective consent changes.
  const apply = useCallback(
    async (consent: ConsentChoice) => {
      if (consent.analytics) loadTagManager(config);
      if (consent.errorReporting) {
        const { createFeedbackSender, startErrorReporting } = await import('./error-reporting-sdk');
        const allowed = () => effective.current.errorReporting;
        setErrorReportSink(startErrorReporting(config, allowed));
        // "Report a Bug" goes the same way, so it is offered only when the SDK runs (a DSN is configured).
        const running = Boolean(config.errorReporting.dsn);
        setFeedbackSender(running ? createFeedbackSender(allowed) : null);
        setErrorReportingAllowed(running);
      } else {
        setErrorReportSink(null);
        setFeedbackSender(null);
        setErrorReportingAllowed(false);
      }
    },
    [config, setErrorReportingAllowed],
  );

  useEffect(() => {
    void apply(effective.current);
    // docs/product/api.md#calls server-error helper: failed calls with the configured statuses are reported.
    const id = http.interceptors.response.use(
      undefined,
      serverErrorHelper(
        (error) => reportError(error, { where: `http ${error.status}` }),
        config.errorReporting.serverErrorStatuses,
      ),
    );
    return () => http.interceptors.response.eject(id);
  }, [apply, http, config]);

  // Changing the opt-out flag reloads the page (docs/product/states.md#states-and-transitions).
  const firstOptOut = useRef(trackingOptOut);
  useEffect(() => {
    if (optOutChanged(firstOptOut.current, trackingOptOut)) window.location.reload();
  }, [trackingOptOut]);

  // A new "Privacy settings" request opens the choices again (state adjusted while rendering).
  const [seenRequest, setSeenRequest] = useState(settingsRequest);
  if (settingsRequest !== seenRequest) {
    setSeenRequest(settingsRequest);
    setDraft(choice ?? noConsent);
    setCustomizing(true);
    setOpen(true);
  }

  // Where the focus goes back after the choice: the control that opened the banner ("Privacy
  // settings"), or the page's main content when the banner opened by itself. Never the page itself.
  // A layout effect: it runs before the banner's own effect moves the focus into the banner.
  const returnFocus = useRef<HTMLElement | null>(null);
  useLayoutEffect(() => {
    if (!open) return;
    const active = document.activeElement;
    returnFocus.current = active instanceof HTMLElement && active !== document.body ? active : null;
  }, [open]);
  const focusAfterChoice = () => {
    const back = returnFocus.current?.isConnected ? returnFocus.current : document.getElementById('main');
    back?.focus({ preventScroll: true });
  };

  const decide = (next: ConsentChoice) => {
    document.cookie = consentCookie(next, window.location.protocol === 'https:');
    const before = effective.current;
    const after = effectiveConsent(next, trackingOptOut);
    effective.current = after;
    setChoice(next);
    setOpen(false);
    setCustomizing(false);
    if (needsReload(before, after)) {
      window.location.reload();
      return;
    }
    focusAfterChoice();
    void apply(after);
  };

  if (!open) return null;
  return (
    <ConsentBanner
      customizing={customizing}
      trackingOptOut={trackingOptOut}
      draft={draft}
      onDraft={setDraft}
      onCustomize={() => setCustomizing(true)}
      onDecide={decide}
    />
  );
}

interface BannerProps {
  customizing: boolean;
  trackingOptOut: boolean;
  draft: ConsentChoice;
  onDraft(draft: ConsentChoice): void;
  onCustomize(): void;
  onDecide(choice: ConsentChoice): void;
}

/** How much of the viewport the banner covers, from its top edge down. */
const coveredByBanner = (banner: HTMLElement) => window.innerHeight - banner.getBoundingClientRect().top;

/**
 * The banner: a card like the page's own, in line with the content, at the bottom of the screen. It is
 * not modal (the page stays usable), so what it covers is published for the shell's scroll padding:
 * Tab never leaves the focus on a link under it (WCAG 2.4.11).
 */
function ConsentBanner({ customizing, trackingOptOut, draft, onDraft, onCustomize, onDecide }: BannerProps) {
  const { t } = useTranslation();
  const titleId = useId();
  const panel = useRef<HTMLElement>(null);
  useCoveredArea(panel, '--consent-height', coveredByBanner);

  useEffect(() => {
    panel.current?.focus();
  }, []);

  return (
    <section
      ref={panel}
      className={customizing ? 'consent consent--customizing' : 'consent'}
      role="region"
      aria-labelledby={titleId}
      tabIndex={-1}
    >
      <h2 id={titleId} className="consent__title">
        {t('consent-banner-title', 'Your privacy choices')}
      </h2>
      <p className="consent__text">{t('consent-banner-text')}</p>
      {trackingOptOut && <p className="consent__text">{t('consent-opt-out-note')}</p>}
      {customizing && (
        <fieldset className="consent__choices">
          <legend className="consent__legend">{t('consent-categories', 'Categories')}</legend>
          <SwitchField
            id={`${titleId}-essential`}
            label={t('consent-essential', 'Essential (always on)')}
            checked
            disabled
            onChange={() => undefined}
          />
          <SwitchField
            id={`${titleId}-analytics`}
            name="analytics"
            label={t('consent-analytics', 'Analytics')}
            checked={draft.analytics}
            onChange={(analytics) => onDraft({ ...draft, analytics })}
          />
          <SwitchField
            id={`${titleId}-error-reporting`}
            name="errorReporting"
            label={t('consent-error-reporting', 'Error reporting')}
            checked={draft.errorReporting}
            onChange={(errorReporting) => onDraft({ ...draft, errorReporting })}
          />
        </fieldset>
      )}
      {/* Accepting and refusing weigh the same; choosing per category is the quieter third way. */}
      <div className="consent__actions">
        <button type="button" className="button button--primary" onClick={() => onDecide(allConsent)}>
          {t('consent-accept-all', 'Accept all')}
        </button>
        <button type="button" className="button button--primary" onClick={() => onDecide(noConsent)}>
          {t('consent-deny-all', 'Deny all')}
        </button>
        {customizing ? (
          <button
            type="button"
            className="button button--secondary consent__more"
            onClick={() => onDecide(draft)}
          >
            {t('consent-save', 'Save choices')}
          </button>
        ) : (
          <button type="button" className="consent__more consent__link" onClick={onCustomize}>
            {t('consent-customize', 'Choose')}
          </button>
        )}
      </div>
    </section>
  );
}
