import { useEffect, useRef, useState } from 'react';
import {
  useForm,
  type FieldError,
  type FieldErrors,
  type Resolver,
  type ResolverResult,
} from 'react-hook-form';
import { useTranslation } from '@/lib/i18n/use-translation';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  checkValues,
  countryCodes,
  listedValues,
  type PersonalDataResponse,
  type PersonalDataRTO,
  type RuleViolation,
} from '@roadpass/contracts';
import {
  CheckboxField,
  Field,
  FormErrors,
  SelectField,
  SubmitButton,
  useErrorFocus,
  type SelectOption,
} from '@/components/form';
import { loadCustomValidators, type CustomValidators } from '@/lib/forms/load-custom-validators';
import { rangeLengthText } from '@/lib/forms/rule-messages';
import { setServerErrors } from '@/lib/forms/server-errors';
import { isOfflineError, useHttp } from '@/lib/http';
import { countryName } from '@/lib/i18n/locale';
import { keptTogether, usePhoneFormat } from '@/lib/phone/use-phone-format';
import { provinceNamesQuery } from '../api/get-province-names';
import { profileKeys } from '../api/query-keys';
import { updatePersonalData } from '../api/update-personal-data';
import { MobileNumber, ReadonlyValue } from './profile-values-view';
import { sections, type FieldSpec } from './profile-sections';
import {
  messageParameters,
  toProfile,
  toValues,
  type ProfileField,
  type ProfileValues,
} from './profile-values';
import { useProfileRules } from './use-profile-rules';
import './profile.css';
import { updateSessionUser } from '@/lib/session/session-user';
import { useStepUp } from '@/lib/forms/step-up';

interface ProfileFormProps {
  /** The saved profile with the customer's rules (GET or the last PUT). */
  data: PersonalDataResponse;
  /** Where the mobile number is changed (with a PIN). */
  mobileHref: string;
}

const addressOf = (profile: PersonalDataRTO) => ({
  country: profile.addressCountryIsoCode ?? '',
  province: profile.addressProvinceIsoCode ?? '',
});

/**
 * docs/product/data.md#entities-and-fields, docs/product/account-rules.md#validation-rules: the customer's profile, its fields and checks from the served rules (invisible fields
 * hidden, read-only ones shown as text); a changed address country or province brings that country's
 * (province's) rules. Checked in the browser before the full profile is sent; the server's 400 comes
 * back onto the fields.
 */
export function ProfileForm({ data, mobileHref }: ProfileFormProps) {
  const { t, i18n } = useTranslation();
  const http = useHttp();
  const queryClient = useQueryClient();
  const saved = data.body.PersonalDataRTO;
  const pendingEmail = data.body.pendingEmail;
  const [address, setAddress] = useState(() => addressOf(saved));
  const [status, setStatus] = useState('');
  const [formMessages, setFormMessages] = useState<string[]>([]);
  const { rules, provinces, pending, failed, retry } = useProfileRules(
    data.meta.metaDataList,
    addressOf(saved),
    address,
  );
  const provinceNames = useQuery({ ...provinceNamesQuery(), enabled: provinces.length > 0 });
  // Ready before the form shows (ProfilePage waits for it): the numbers are grouped from the start.
  const { format: formatPhone } = usePhoneFormat();

  const describe = (violation: Pick<RuleViolation, 'field' | 'rule'>) => {
    const parameters = messageParameters(rules, violation);
    if (violation.rule === 'rangelength') return rangeLengthText(t, parameters);
    return t(`rules-${violation.rule}`, { defaultValue: t('rules-pattern'), ...parameters });
  };
  // The browser's check: the very interpreter and validators the server runs, one message per field.
  const resolver: Resolver<ProfileValues, unknown, PersonalDataRTO> = async (
    values,
  ): Promise<ResolverResult<ProfileValues, PersonalDataRTO>> => {
    let customValidators: CustomValidators;
    try {
      customValidators = await loadCustomValidators();
    } catch {
      // Not checked, so not sent: said above the button (the form's root error).
      const root = { type: 'load', message: t('account-save-error') };
      return { values: {}, errors: { root } as FieldErrors<ProfileValues> };
    }
    const profile = toProfile(values);
    const errors: Partial<Record<ProfileField, FieldError>> = {};
    for (const violation of checkValues(rules, profile, { customValidators, unknownCustom: 'skip' })) {
      errors[violation.field as ProfileField] ??= { type: violation.rule, message: describe(violation) };
    }
    return Object.keys(errors).length > 0 ? { values: {}, errors } : { values: profile, errors: {} };
  };
  const form = useForm<ProfileValues, unknown, PersonalDataRTO>({
    defaultValues: toValues(saved, formatPhone),
    resolver,
    shouldFocusError: false,
  });
  const { register, handleSubmit, setError, formState, reset, trigger } = form;
  // A new e-mail address needs a recent sign-in: the typed profile comes back after it.
  const handleStepUp = useStepUp('profile', form);
  const { containerRef, focusErrors } = useErrorFocus();
  const { errors, isSubmitted } = formState;

  // New rules (another country or province) re-check what was already checked; only new rules do
  // (the server's messages of the last save stay until the customer changes the field).
  const checkedWith = useRef(rules);
  useEffect(() => {
    if (checkedWith.current === rules) return;
    checkedWith.current = rules;
    if (isSubmitted) void trigger();
  }, [rules, isSubmitted, trigger]);

  useEffect(() => {
    loadCustomValidators().catch(() => undefined);
  }, []);

  const mutation = useMutation({
    mutationFn: (profile: PersonalDataRTO) => updatePersonalData(http, profile),
  });

  const shows = (spec: FieldSpec) => {
    const rule = rules[spec.field];
    if (rule?.invisible) return false;
    if (spec.kind === 'checkbox') return rule !== undefined;
    if (spec.kind === 'province') return provinces.length > 0;
    return true;
  };
  const editable = (spec: FieldSpec) => shows(spec) && spec.kind !== 'mobile' && !rules[spec.field]?.readonly;
  const inputFields = sections.flatMap((section) =>
    section.fields.filter(editable).map((spec) => spec.field),
  );
  const shownFields = new Set(
    sections.flatMap((section) => section.fields.filter(shows).map((s) => s.field)),
  );
  const labelOf = (field: string) =>
    field === 'language' ? t('language-label') : t(`profile-field-${field}`, { defaultValue: field });
  // A message about a field that is not on screen names it, when it has a name a customer knows.
  const named = (field: string, message: string) =>
    field === 'language' || i18n.exists(`profile-field-${field}`) ? `${labelOf(field)}: ${message}` : message;
  // A broken rule of a field that has no place on screen (e.g. the language) still needs saying.
  const unplacedErrors = Object.entries(errors)
    .filter(([field]) => !shownFields.has(field as ProfileField) && field !== 'root')
    .map(([field, error]) => named(field, error?.message ?? ''));

  const onSubmit = handleSubmit(async (profile) => {
    if (mutation.isPending) return;
    setStatus('');
    setFormMessages([]);
    if (pending || failed) return;
    try {
      const answer = await mutation.mutateAsync(profile);
      queryClient.setQueryData(profileKeys.personalData(), answer);
      const next = answer.body.PersonalDataRTO;
      reset(toValues(next, formatPhone));
      setAddress(addressOf(next));
      updateSessionUser(queryClient, {
        firstName: next.firstName,
        lastName: next.lastName,
        salutation: next.salutation,
      });
      const waiting = answer.body.pendingEmail;
      const emailAsked = waiting !== null && profile.email.toLowerCase() !== next.email.toLowerCase();
      setStatus(
        emailAsked
          ? `${t('profile-saved')} ${t('profile-email-sent', { email: waiting })}`
          : t('profile-saved'),
      );
    } catch (error) {
      if (handleStepUp(error)) return;
      const { handled, formMessages: rest } = setServerErrors(error, setError, {
        fields: inputFields,
        describe: (violation) =>
          inputFields.includes(violation.field as ProfileField)
            ? describe(violation)
            : named(violation.field, describe(violation)),
      });
      setFormMessages(
        handled ? rest : [t(isOfflineError(error) ? 'account-save-offline' : 'account-save-error')],
      );
      focusErrors();
    }
  }, focusErrors);

  const collator = new Intl.Collator(i18n.language);
  const byLabel = (a: SelectOption, b: SelectOption) => collator.compare(a.label, b.label);
  const countryOptions: SelectOption[] = countryCodes
    .map((country) => ({ value: country, label: countryName(country, i18n.language) }))
    .sort(byLabel);
  const provinceLabel = (province: string) => provinceNames.data?.[address.country]?.[province] ?? province;
  const provinceOptions: SelectOption[] = [
    { value: '', label: t('profile-province-choose') },
    ...provinces.map((province) => ({ value: province, label: provinceLabel(province) })).sort(byLabel),
  ];
  const textOf = (field: ProfileField, value: string) =>
    field === 'addressCountryIsoCode' && value
      ? countryName(value, i18n.language)
      : field === 'addressProvinceIsoCode' && value
        ? provinceLabel(value)
        : field === 'salutation'
          ? t(`profile-salutation-${value}`, { defaultValue: value })
          : value;

  const frame = (spec: FieldSpec) => ({
    id: `profile-${spec.field}`,
    label: labelOf(spec.field),
    error: errors[spec.field]?.message,
    required: rules[spec.field]?.required ?? false,
    requiredLabel: t('account-required'),
    className: spec.wide ? 'profile__wide' : undefined,
    ...(spec.hint ? { hint: t(spec.hint) } : {}),
    // The new address waits for its link; until then the account keeps the one in the field.
    ...(spec.field === 'email' && pendingEmail
      ? { hint: t('profile-email-waiting', { email: pendingEmail }) }
      : {}),
  });

  const renderField = (spec: FieldSpec) => {
    const { field } = spec;
    if (spec.kind === 'mobile') {
      const mobile = saved.mobilePhone && keptTogether(formatPhone(saved.mobilePhone));
      return <MobileNumber key={field} label={labelOf(field)} number={mobile} href={mobileHref} />;
    }
    if (rules[field]?.readonly) {
      const value = saved[field];
      return (
        <ReadonlyValue
          key={field}
          id={`profile-${field}`}
          label={labelOf(field)}
          value={typeof value === 'string' && value !== '' ? textOf(field, value) : null}
          error={errors[field]?.message}
        />
      );
    }
    switch (spec.kind) {
      case 'checkbox':
        return <CheckboxField key={field} {...frame(spec)} inputProps={register(field)} />;
      case 'salutation':
        return (
          <SelectField
            key={field}
            {...frame(spec)}
            options={listedValues(rules.salutation).map((value) => ({ value, label: textOf(field, value) }))}
            selectProps={{ ...register(field), autoComplete: 'honorific-prefix' }}
          />
        );
      case 'country':
        return (
          <SelectField
            key={field}
            {...frame(spec)}
            options={
              (saved.addressCountryIsoCode ?? '') === ''
                ? [{ value: '', label: t('profile-country-choose') }, ...countryOptions]
                : countryOptions
            }
            selectProps={{
              ...register(field, {
                onChange: (event: { target: { value: string } }) => {
                  const country = event.target.value;
                  const province =
                    country === saved.addressCountryIsoCode ? (saved.addressProvinceIsoCode ?? '') : '';
                  form.setValue('addressProvinceIsoCode', province);
                  setAddress({ country, province });
                },
              }),
              autoComplete: 'country',
            }}
          />
        );
      case 'province':
        return (
          <SelectField
            key={field}
            {...frame(spec)}
            options={provinceOptions}
            selectProps={{
              ...register(field, {
                onChange: (event: { target: { value: string } }) =>
                  setAddress((current) => ({ ...current, province: event.target.value })),
              }),
              autoComplete: 'address-level1',
            }}
          />
        );
      default:
        return <Field key={field} {...frame(spec)} inputProps={{ ...register(field), ...spec.input }} />;
    }
  };

  return (
    <form ref={containerRef} className="profile" noValidate onSubmit={(event) => void onSubmit(event)}>
      {sections.map((section) => {
        const fields = section.fields.filter(shows);
        const hasReadonly = fields.some((spec) => spec.kind !== 'mobile' && rules[spec.field]?.readonly);
        return (
          <fieldset key={section.id} className="card profile__section">
            <legend className="profile__legend">{t(`profile-section-${section.id}`)}</legend>
            <div className="profile__fields">
              {hasReadonly && <p className="profile__note profile__wide">{t('profile-readonly-note')}</p>}
              {fields.map(renderField)}
            </div>
          </fieldset>
        );
      })}
      <div className="profile__actions">
        <FormErrors
          messages={[
            ...unplacedErrors,
            ...(errors.root?.message ? [errors.root.message] : []),
            ...formMessages,
          ]}
        />
        {failed && (
          <div className="form-errors profile__rules-failed" role="alert">
            <p>{t('profile-rules-error')}</p>
            <button type="button" className="button button--secondary" onClick={retry}>
              {t('profile-retry')}
            </button>
          </div>
        )}
        <p className="sub-page__status" role="status">
          {status}
        </p>
        <SubmitButton
          className="button button--primary"
          busy={mutation.isPending}
          disabled={pending || failed}
        >
          {t('profile-submit')}
        </SubmitButton>
        {pending && <p className="field__hint">{t('profile-rules-loading')}</p>}
      </div>
    </form>
  );
}
