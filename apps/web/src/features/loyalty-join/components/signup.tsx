import { useEffect, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { useTranslation } from '@/lib/i18n/use-translation';
import { LOYALTY_CORE_CONSENT, type ConsentDefinition, type Violation } from '@roadpass/contracts';
import { routes } from '@/config/routes';
import { CheckboxField, FormErrors, useErrorFocus } from '@/components/form';
import { setServerErrors } from '@/lib/forms/server-errors';
import { saveConsent } from '@/lib/loyalty/api/update-customer-consent';
import { useHttp } from '@/lib/http';
import { useLoyaltyStore } from '@/lib/loyalty/loyalty-store';
import { useCustomer } from '@/lib/loyalty/use-customer';
import { LoadingAnimation } from '@/components/loyalty-page/loading-animation';
import { LoyaltyRedirect, useLoyaltyNavigate } from '@/components/loyalty-page/loyalty-link';
import { LoyaltyPage } from '@/components/loyalty-page/loyalty-page';
import { useAppStore } from '@/lib/state/app-store';
import { useSignupConsents } from '../use-signup-consents';
import './join.css';

/** The field name the consent PATCH body uses for the customer's choice. */
const GRANTED_FIELD = 'granted';

/** `/signup`: the programme's terms, the core consent and Join (docs/product/addresses-and-routes.md#screens-and-routes and its three rules). */
export function Signup() {
  const { t } = useTranslation();
  // Decided once, on arrival: the router records this route only after the first render.
  const [cameFromStatus] = useState(() => {
    const { current, previous } = useLoyaltyStore.getState().route;
    return (current === routes.loyalty.signup.name ? previous : current) === routes.loyalty.status.name;
  });
  const consents = useSignupConsents(!cameFromStatus);
  const failed = consents.kind === 'failed';

  // docs/product/addresses-and-routes.md#screens-and-routes: loading the consents failed → error banner and error page.
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

type Choices = Record<string, boolean>;

function SignupForm({
  required,
  optional,
}: {
  required: ConsentDefinition[];
  optional: ConsentDefinition[];
}) {
  const { t } = useTranslation();
  const http = useHttp();
  const queryClient = useQueryClient();
  const user = useCustomer();
  const navigate = useLoyaltyNavigate();
  const [formMessages, setFormMessages] = useState<string[]>([]);

  // The core consent is always asked for, even if the content does not describe it.
  const requiredConsents = required.some((definition) => definition.slug === LOYALTY_CORE_CONSENT)
    ? required
    : [fallbackCoreConsent(t('loyalty-signup-consent-fallback')), ...required];
  const all = [...requiredConsents, ...optional];
  // Slugs may hold dots; the form keys them by position instead.
  const fieldOf = (slug: string) => consentFieldId(slug);
  const { register, handleSubmit, setError, formState } = useForm<Choices>({
    defaultValues: Object.fromEntries(all.map((definition) => [fieldOf(definition.slug), false])),
    shouldFocusError: false,
  });
  const { containerRef, focusErrors } = useErrorFocus();

  const describe = (violation: Violation) =>
    t([`loyalty-violation-${violation.rule}`, 'loyalty-violation-generic'], { field: violation.field });

  const join = async (choices: Choices) => {
    setFormMessages([]);
    const update = { legalEntityId: user.legalEntityId, granted: true };
    try {
      for (const definition of requiredConsents) {
        await saveConsent(queryClient, http, user.uuid, definition.slug, update);
      }
    } catch (error) {
      // A 400 goes back onto the consent it names (the PATCH body's "granted" is the core consent).
      const { handled, formMessages: rest } = setServerErrors(error, setError, {
        fields: all.map((definition) => fieldOf(definition.slug)),
        describe,
        fieldOf: (violation) =>
          violation.field === GRANTED_FIELD ? fieldOf(LOYALTY_CORE_CONSENT) : fieldOf(violation.field),
      });
      if (handled) {
        setFormMessages(rest);
        focusErrors();
      } else useAppStore.getState().addToast({ type: 'error', message: t('loyalty-signup-failed') });
      return;
    }

    // The customer is a member now; an optional choice that could not be saved does not undo that.
    const chosen = optional.filter((definition) => choices[fieldOf(definition.slug)]);
    const results = await Promise.allSettled(
      chosen.map((definition) => saveConsent(queryClient, http, user.uuid, definition.slug, update)),
    );
    if (results.some((result) => result.status === 'rejected')) {
      useAppStore.getState().addToast({ type: 'warning', message: t('loyalty-signup-optional-failed') });
    }
    navigate(routes.loyalty.celebration.build());
  };

  const renderConsent = (definition: ConsentDefinition, isRequired: boolean) => {
    const name = fieldOf(definition.slug);
    return (
      <CheckboxField
        key={definition.slug}
        id={name}
        label={definition.title}
        hint={definition.description || undefined}
        required={isRequired}
        requiredLabel={`(${t('loyalty-signup-required')})`}
        error={formState.errors[name]?.message}
        inputProps={register(name, {
          validate: (checked) => !isRequired || checked || t('loyalty-signup-consent-missing'),
        })}
      />
    );
  };

  return (
    <form
      ref={containerRef}
      className="card join__form"
      noValidate
      onSubmit={(event) => void handleSubmit(join, focusErrors)(event)}
    >
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
      <FormErrors messages={formMessages} />
      <div className="loyalty-actions">
        <button
          type="submit"
          className="button button--primary"
          disabled={formState.isSubmitting}
          aria-busy={formState.isSubmitting || undefined}
        >
          {formState.isSubmitting ? t('loyalty-signup-joining') : t('loyalty-signup-join')}
        </button>
      </div>
    </form>
  );
}

/** A consent's form field (and element id); slugs are letters, digits and dashes. */
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
