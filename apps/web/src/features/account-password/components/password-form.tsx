import { useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { useTranslation } from '@/lib/i18n/use-translation';
import { useMutation, useQuery } from '@tanstack/react-query';
import {
  checkValues,
  type CompiledRules,
  type PasswordUpdate,
  type RuleViolation,
} from '@roadpass/contracts';
import { FormErrors, SubmitButton, useErrorFocus } from '@/components/form';
import { SwitchField } from '@/components/form/switch-field';
import { PasswordField } from '@/components/form/password-field';
import { Spinner } from '@/components/spinner';
import {
  customValidatorsFor,
  useCustomValidators,
  type CustomValidators,
} from '@/lib/forms/load-custom-validators';
import { rangeLengthText } from '@/lib/forms/rule-messages';
import { setConstraintViolations } from '@/lib/forms/constraint-errors';
import { useStepUp } from '@/lib/forms/step-up';
import { isOfflineError, useHttp } from '@/lib/http';
import { passwordPolicyQuery } from '../api/get-password-policy';
import { updatePassword } from '../api/update-password';
import './password-form.css';

type Values = PasswordUpdate;
const fields = ['passwordOld', 'password'] as const;

/** The policy items the checklist shows, from the served rules of the new password. */
function policyItems(rules: CompiledRules): { rule: string; parameter: string }[] {
  const password = rules.password;
  if (!password || password.invisible) return [];
  const items: { rule: string; parameter: string }[] = [];
  if (password.minLength > 0) items.push({ rule: 'rangelength', parameter: String(password.minLength) });
  for (const { validator, parameter } of password.custom) items.push({ rule: validator, parameter });
  return items;
}

/**
 * docs/product/account-rules.md#validation-rules, docs/product/errors.md#error-catalogue: change the password; the policy shows as a checklist that follows the typing. The
 * validators of our own (common passwords …) come in a chunk of their own after the form shows: until
 * then their items are not shown as met, and a submit waits for them.
 */
export function PasswordForm() {
  const { t } = useTranslation();
  const http = useHttp();
  const policy = useQuery(passwordPolicyQuery(http));
  const [status, setStatus] = useState('');
  const [formMessages, setFormMessages] = useState<string[]>([]);
  const form = useForm<Values>({
    defaultValues: { passwordOld: '', password: '', signOutOtherDevices: true },
    shouldFocusError: false,
  });
  const { register, handleSubmit, setError, formState, control, reset } = form;
  const { containerRef, focusErrors } = useErrorFocus();
  const values = useWatch({ control }) as Values;
  const customValidators = useCustomValidators();
  // Nothing of this form is kept across the step-up sign-in: both fields are passwords.
  const handleStepUp = useStepUp('password', form);

  const mutation = useMutation({ mutationFn: (update: Values) => updatePassword(http, update) });

  if (policy.isPending) return <Spinner />;
  if (policy.isError) {
    return (
      <p role="alert" className="password-form__error">
        {t('account-load-error')}
      </p>
    );
  }
  const rules = policy.data;
  // Without the custom validators (not here yet, or not loadable) only the other rules are checked.
  const check = (current: Values, validators: CustomValidators | undefined): RuleViolation[] =>
    checkValues(rules, current, { customValidators: validators, unknownCustom: 'skip' });
  const describe = (violation: RuleViolation) => {
    const range = {
      min: rules[violation.field]?.minLength ?? 0,
      max: rules[violation.field]?.maxLength ?? 0,
    };
    if (violation.rule === 'rangelength') return rangeLengthText(t, range, 'password-rule-rangelength');
    return t(`password-rule-${violation.rule}`, { defaultValue: t('password-rule-invalid'), ...range });
  };
  const broken = new Set(
    check(values, customValidators)
      .filter((v) => v.field === 'password')
      .map((v) => v.rule),
  );
  const isChecked = (rule: string) => rule === 'rangelength' || customValidators !== undefined;

  const onSubmit = handleSubmit(async (current) => {
    if (mutation.isPending) return;
    setStatus('');
    setFormMessages([]);
    // A submit before the chunk has come waits for it; should it not load, the server checks the
    // same rules and its 400 comes back onto the fields below.
    const violations = check(current, await customValidatorsFor(rules));
    if (violations.length > 0) {
      for (const violation of violations) {
        setError(violation.field as keyof Values, { type: violation.rule, message: describe(violation) });
      }
      focusErrors();
      return;
    }
    try {
      await mutation.mutateAsync(current);
      // The focus stays on the submit button (never disabled), where the status is announced.
      reset({ passwordOld: '', password: '', signOutOtherDevices: current.signOutOtherDevices });
      setStatus(t('password-saved'));
    } catch (error) {
      if (handleStepUp(error)) return;
      const { handled, formMessages: rest } = setConstraintViolations(error, setError, { fields });
      setFormMessages(
        handled ? rest : [t(isOfflineError(error) ? 'account-save-offline' : 'account-save-error')],
      );
      focusErrors();
    }
  });

  const items = policyItems(rules);

  return (
    <form
      ref={containerRef}
      className="card password-form"
      noValidate
      onSubmit={(event) => void onSubmit(event)}
    >
      <p className="sub-page__status" role="status">
        {status}
      </p>
      <FormErrors messages={formMessages} />
      {fields.map((field) => (
        <PasswordField
          key={field}
          id={`password-${field}`}
          label={t(field === 'password' ? 'password-new' : 'password-old')}
          error={formState.errors[field]?.message}
          required={rules[field]?.required ?? false}
          requiredLabel={t('account-required')}
          showLabel={t('password-show')}
          hideLabel={t('password-hide')}
          inputProps={{
            ...register(field),
            autoComplete: field === 'password' ? 'new-password' : 'current-password',
            ...(field === 'password' && items.length > 0 ? { 'aria-details': 'password-policy' } : {}),
          }}
        />
      ))}
      {items.length > 0 && (
        <div id="password-policy" className="password-form__policy">
          <p className="password-form__policy-title">{t('password-policy-title')}</p>
          <ul>
            {items.map(({ rule, parameter }) => {
              const met = values.password !== '' && isChecked(rule) && !broken.has(rule);
              return (
                <li key={rule} className={met ? 'is-met' : undefined}>
                  <span aria-hidden="true" className="password-form__mark">
                    {met ? '✓' : '•'}
                  </span>
                  {t(`password-policy-${rule}`, { defaultValue: rule, min: parameter })}
                  <span className="visually-hidden">
                    {' '}
                    ({t(met ? 'password-policy-met' : 'password-policy-unmet')})
                  </span>
                </li>
              );
            })}
          </ul>
        </div>
      )}
      {/* docs/product/security.md#sessions: on by default (ASVS 7.4.3). */}
      <SwitchField
        id="password-sign-out-others"
        label={t('password-sign-out-others')}
        hint={t('password-sign-out-others-hint')}
        checked={values.signOutOtherDevices !== false}
        onChange={(checked) => form.setValue('signOutOtherDevices', checked)}
      />
      <SubmitButton className="button button--primary" busy={mutation.isPending}>
        {t('password-submit')}
      </SubmitButton>
    </form>
  );
}
