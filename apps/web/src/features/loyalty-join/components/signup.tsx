import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { LOYALTY_CORE_CONSENT, type ConsentDefinition, type Violation } from '@roadpass/contracts';
import { routes } from '@/config/routes';
import { isHttpError, useHttp } from '@/lib/http';
import { useLoyaltyStore } from '@/lib/loyalty/loyalty-store';
import { useCustomer } from '@/lib/loyalty/use-customer';
import { LoadingAnimation } from '@/lib/loyalty/ui/loading-animation';
import { LoyaltyRedirect, useLoyaltyNavigate } from '@/lib/loyalty/ui/loyalty-link';
import { LoyaltyPage } from '@/lib/loyalty/ui/loyalty-page';
import { useAppStore } from '@/lib/state/app-store';
import { useSignupConsents } from '../use-signup-consents';
import './join.css';

/** The field name the consent PATCH body uses for the customer's choice. */
const GRANTED_FIELD = 'granted';

/** `/signup`: the programme's terms, the core consent and Join (spec §2 and its three rules). */
export function Signup() {
  const { t } = useTranslation();
  // Decided once, on arrival: the router records this route only after the first render.
  const [cameFromStatus] = useState(() => {
    const { current, previous } = useLoyaltyStore.getState().route;
    return (current === routes.loyalty.signup.name ? previous : current) === routes.loyalty.status.name;
  });
  const consents = useSignupConsents(!cameFromStatus);
  const failed = consents.kind === 'failed';

  // Spec §2: loading the consents failed → error banner and error page.
  useEffect(() => {
    if (failed) useAppStore.getState().setError(true);
  }, [failed]);

  if (cameFromStatus || consents.kind === 'member') {
    return <LoyaltyRedirect to={routes.loyalty.status.build()} />;
  }

  return (
    <LoyaltyPage
      title={t('loyalty-signup-title')}
      eyebrow={t('loyalty-programme-name')}
      back={{ to: routes.loyalty.onboarding.build(), label: t('loyalty-back') }}
      className="join"
      busy={consents.kind === 'loading'}
    >
      {consents.kind === 'loading' && <LoadingAnimation />}
      {consents.kind === 'ready' && <SignupForm required={consents.required} optional={consents.optional} />}
    </LoyaltyPage>
  );
}

function SignupForm({
  required,
  optional,
}: {
  required: ConsentDefinition[];
  optional: ConsentDefinition[];
}) {
  const { t } = useTranslation();
  const http = useHttp();
  const user = useCustomer();
  const navigate = useLoyaltyNavigate();
  const validationErrors = useLoyaltyStore((state) => state.validationErrors);
  const [checked, setChecked] = useState<Record<string, boolean>>({});
  const [submitting, setSubmitting] = useState(false);

  // The core consent is always asked for, even if the content does not describe it.
  const requiredConsents = required.some((definition) => definition.slug === LOYALTY_CORE_CONSENT)
    ? required
    : [fallbackCoreConsent(t('loyalty-signup-consent-fallback')), ...required];
  const consentSlugs = new Set([...requiredConsents, ...optional].map((definition) => definition.slug));
  const errorsOf = (slug: string) => [
    ...(validationErrors[slug] ?? []),
    ...(slug === LOYALTY_CORE_CONSENT ? (validationErrors[GRANTED_FIELD] ?? []) : []),
  ];
  const otherErrors = Object.entries(validationErrors)
    .filter(([attribute]) => attribute !== GRANTED_FIELD && !consentSlugs.has(attribute))
    .flatMap(([, messages]) => messages);

  useEffect(() => () => useLoyaltyStore.getState().clearValidationErrors(), []);

  const describe = (violation: Violation) =>
    t([`loyalty-violation-${violation.rule}`, 'loyalty-violation-generic'], { field: violation.field });

  const toggle = (slug: string, value: boolean) => {
    setChecked((current) => ({ ...current, [slug]: value }));
    useLoyaltyStore.getState().clearValidationErrors();
  };

  const join = async (event: FormEvent) => {
    event.preventDefault();
    if (submitting) return;
    const loyalty = useLoyaltyStore.getState();
    loyalty.clearValidationErrors();
    const missing = requiredConsents.filter((definition) => !checked[definition.slug]);
    for (const definition of missing)
      loyalty.addValidationError(definition.slug, t('loyalty-signup-consent-missing'));
    if (missing.length > 0) {
      document.getElementById(consentFieldId(missing[0]!.slug))?.focus();
      return;
    }

    setSubmitting(true);
    const update = { legalEntityId: user.legalEntityId, granted: true };
    try {
      for (const definition of requiredConsents) {
        await loyalty.saveConsent(http, user.uuid, definition.slug, update, describe);
      }
    } catch (error) {
      setSubmitting(false);
      if (!isHttpError(error) || error.status !== 400) {
        useAppStore.getState().addToast({ type: 'error', message: t('loyalty-signup-failed') });
      }
      return;
    }

    // The customer is a member now; an optional choice that could not be saved does not undo that.
    const chosen = optional.filter((definition) => checked[definition.slug]);
    const results = await Promise.allSettled(
      chosen.map((definition) => loyalty.saveConsent(http, user.uuid, definition.slug, update, describe)),
    );
    if (results.some((result) => result.status === 'rejected')) {
      useAppStore.getState().addToast({ type: 'warning', message: t('loyalty-signup-optional-failed') });
    }
    navigate(routes.loyalty.celebration.build());
  };

  const renderConsent = (definition: ConsentDefinition, isRequired: boolean) => {
    const id = consentFieldId(definition.slug);
    const errors = errorsOf(definition.slug);
    const invalid = errors.length > 0;
    const describedBy = [definition.description ? `${id}-description` : null, invalid ? `${id}-error` : null]
      .filter(Boolean)
      .join(' ');
    return (
      <div key={definition.slug} className={`join__consent${invalid ? ' join__consent--invalid' : ''}`}>
        <div className="join__consent-choice">
          <input
            id={id}
            type="checkbox"
            className="join__checkbox"
            checked={Boolean(checked[definition.slug])}
            onChange={(event) => toggle(definition.slug, event.target.checked)}
            required={isRequired}
            aria-required={isRequired || undefined}
            aria-invalid={invalid || undefined}
            aria-describedby={describedBy || undefined}
          />
          <label htmlFor={id} className="join__consent-title">
            {definition.title}
            {isRequired && <span className="join__required"> ({t('loyalty-signup-required')})</span>}
          </label>
        </div>
        {definition.description && (
          <p id={`${id}-description`} className="join__consent-description">
            {definition.description}
          </p>
        )}
        {invalid && (
          <p id={`${id}-error`} className="join__field-error">
            {errors.join(' ')}
          </p>
        )}
      </div>
    );
  };

  return (
    <form className="card join__form" noValidate onSubmit={(event) => void join(event)}>
      <p className="join__lead">{t('loyalty-signup-intro')}</p>
      <fieldset className="join__fieldset">
        <legend className="join__legend">{t('loyalty-signup-terms')}</legend>
        {requiredConsents.map((definition) => renderConsent(definition, true))}
      </fieldset>
      {optional.length > 0 && (
        <fieldset className="join__fieldset">
          <legend className="join__legend">{t('loyalty-signup-optional-title')}</legend>
          {optional.map((definition) => renderConsent(definition, false))}
        </fieldset>
      )}
      {otherErrors.length > 0 && (
        <div className="join__form-errors" role="alert">
          <ul>
            {otherErrors.map((message) => (
              <li key={message}>{message}</li>
            ))}
          </ul>
        </div>
      )}
      <div className="loyalty-actions">
        <button
          type="submit"
          className="button button--primary"
          disabled={submitting}
          aria-busy={submitting || undefined}
        >
          {submitting ? t('loyalty-signup-joining') : t('loyalty-signup-join')}
        </button>
      </div>
    </form>
  );
}

const consentFieldId = (slug: string) => `consent-${slug}`;

function fallbackCoreConsent(title: string): ConsentDefinition {
  return {
    slug: LOYALTY_CORE_CONSENT,
    processes: [],
    sets: [],
    required: true,
    language: '',
    title,
    description: '',
  };
}
