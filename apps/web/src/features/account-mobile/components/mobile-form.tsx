import { useEffect, useMemo, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from '@/lib/i18n/use-translation';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  checkValues,
  compileRules,
  phoneNumberInput,
  type MobileResponse,
  type PendingMobilePhone,
  type RuleViolation,
} from '@roadpass/contracts';
import { Field, FormErrors } from '@/components/form';
import { Spinner } from '@/components/spinner';
import { constraintViolationsOf } from '@/lib/forms/constraint-violations';
import {
  customValidatorsFor,
  namesCustomValidators,
  useCustomValidators,
} from '@/lib/forms/load-custom-validators';
import { setServerErrors } from '@/lib/forms/server-errors';
import { isOfflineError, useHttp } from '@/lib/http';
import { keptTogether, usePhoneFormat } from '@/lib/phone/use-phone-format';
import { mobileQuery, updateMobile } from '../api/mobile-queries';
import { mobileKeys } from '../api/query-keys';
import './mobile-form.css';
import { useStepUp } from '@/lib/forms/step-up';

interface Values {
  mobilePhone: string;
  pin: string;
}
type FieldName = keyof Values;

/** The ids of what the focus moves to after an action (the control it concerns, or its outcome). */
const ids = {
  mobilePhone: 'mobile-number',
  pin: 'mobile-pin',
  status: 'mobile-status',
  void: 'mobile-pin-void',
} as const;

/** Whether the time `at` has come (re-renders when it does, e.g. when another PIN may be asked for). */
function useReached(at: string | undefined): boolean {
  const target = at ? Date.parse(at) : NaN;
  const [reachedTarget, setReachedTarget] = useState<number | null>(null);
  useEffect(() => {
    if (Number.isNaN(target)) return;
    const timer = setTimeout(() => setReachedTarget(target), Math.max(0, target - Date.now()));
    return () => clearTimeout(timer);
  }, [target]);
  return Number.isNaN(target) || reachedTarget === target;
}

/**
 * docs/product/account-rules.md#validation-rules / docs/product/account-rules.md#account-rules: change the mobile number in two steps, the number (a PIN is sent to
 * it by SMS), then the PIN. Both are checked with the served rules before sending; the server's texts
 * explain a wrong or expired PIN. Numbers are typed as people write them and shown grouped.
 */
export function MobileForm() {
  const { t, i18n } = useTranslation();
  const http = useHttp();
  const queryClient = useQueryClient();
  const state = useQuery(mobileQuery(http));
  const phone = usePhoneFormat();
  const [changing, setChanging] = useState(false);
  const [status, setStatus] = useState('');
  const [formMessages, setFormMessages] = useState<string[]>([]);
  const form = useForm<Values>({ defaultValues: { mobilePhone: '', pin: '' } });
  const { register, handleSubmit, setError, formState, setValue, clearErrors } = form;
  // A new number needs a recent sign-in: the typed number comes back after it (never the PIN).
  const handleStepUp = useStepUp('mobile', form);
  const pending: PendingMobilePhone | null = state.data?.body.pending ?? null;
  const resendAllowed = useReached(pending?.resendAvailableAt);
  const mutation = useMutation({
    mutationFn: (update: { mobilePhone: string; pin?: string }) => updateMobile(http, update),
  });
  const rules = useMemo(() => compileRules(state.data?.meta.metaDataList ?? []), [state.data]);
  // The validators of our own, only when the served rules name one (their chunk comes after the form).
  useCustomValidators(namesCustomValidators(rules));

  // The step on screen changes after an answer has come and rendered: the focus follows it then (each
  // request once, when its element is there).
  const [focusRequest, setFocusRequest] = useState<{ id: string } | null>(null);
  const focused = useRef<{ id: string } | null>(null);
  useEffect(() => {
    const element = focusRequest ? document.getElementById(focusRequest.id) : null;
    if (!element || focused.current === focusRequest) return;
    element.focus();
    focused.current = focusRequest;
  }, [focusRequest, state.data]);

  // Both the data and the number formatter, so that no number changes its spelling in front of the customer.
  if (state.isPending || !phone.ready) return <Spinner />;
  if (state.isError) {
    return (
      <p role="alert" className="mobile-form__error">
        {t('account-load-error')}
      </p>
    );
  }

  const number = (e164: string) => keptTogether(phone.format(e164));
  const time = (iso: string) =>
    new Intl.DateTimeFormat(i18n.language, { hour: '2-digit', minute: '2-digit' }).format(new Date(iso));
  const current = state.data.body.mobilePhone;
  const showPinStep = pending !== null && !changing;
  // Five wrong PINs void the PIN: only a new one (or another number) goes on from here.
  const isVoid = showPinStep && pending.attemptsLeft === 0;
  // The field on screen: a violation of any other attribute is shown above the form.
  const shownField: FieldName = showPinStep ? 'pin' : 'mobilePhone';

  /** The served rules' first broken one for `field`, checked as the server checks it. */
  const brokenRule = async (
    field: FieldName,
    values: Record<string, string | undefined>,
  ): Promise<RuleViolation | undefined> => {
    // A check before the validators' chunk has come waits for it; should it not load, the server
    // checks the same rules and its 400 comes back onto the field.
    const customValidators = await customValidatorsFor(rules);
    return checkValues(rules, values, { customValidators, unknownCustom: 'skip' }).find(
      (violation) => violation.field === field,
    );
  };
  const ruleMessage = ({ field, rule }: RuleViolation) => {
    if (field === 'pin') return t('mobile-pin-invalid');
    if (rule === 'required') return t('mobile-rule-required');
    if (rule === 'differsFrom') return t('mobile-rule-same');
    return t('mobile-rule-invalid');
  };

  const send = async (update: { mobilePhone: string; pin?: string }): Promise<MobileResponse | null> => {
    setFormMessages([]);
    try {
      const saved = await mutation.mutateAsync(update);
      queryClient.setQueryData(mobileKeys.state(), saved);
      return saved;
    } catch (error) {
      if (handleStepUp(error)) return null;
      // The customer's text of each broken rule is in constraintViolationMetaInfo (docs/product/account-rules.md#validation-rules).
      const texts = constraintViolationsOf(error);
      const { handled, formMessages: rest } = setServerErrors(error, setError, {
        fields: [shownField],
        describe: (violation) =>
          texts.find((meta) => meta.attribute === violation.field && meta.validator === violation.rule)
            ?.text ?? violation.message,
      });
      // The form layer marks the field; the focus goes to it (the step's own focus rule, below).
      if (handled) setFocusRequest({ id: ids[shownField] });
      // A 429 (another PIN too soon) says when, but breaks no rule of a field.
      const tooSoon = [...new Set(texts.map((meta) => meta.text))];
      setFormMessages(
        handled
          ? rest
          : tooSoon.length > 0
            ? tooSoon
            : [t(isOfflineError(error) ? 'account-save-offline' : 'account-save-error')],
      );
      if (texts.length > 0) {
        // A wrong PIN changes the attempts left (and the fifth voids it): show the server's count.
        await queryClient.invalidateQueries({ queryKey: mobileKeys.state() });
        const now = queryClient.getQueryData<MobileResponse>(mobileKeys.state());
        if (update.pin !== undefined && now?.body.pending?.attemptsLeft === 0)
          setFocusRequest({ id: ids.void });
      }
      return null;
    }
  };

  const requestPin = handleSubmit(async ({ mobilePhone: typed }) => {
    setStatus('');
    const mobilePhone = phoneNumberInput(typed);
    const broken = await brokenRule('mobilePhone', {
      mobilePhone,
      currentMobilePhone: current ?? undefined,
    });
    if (broken) {
      setError('mobilePhone', { type: broken.rule, message: ruleMessage(broken) }, { shouldFocus: true });
      return;
    }
    const saved = await send({ mobilePhone });
    if (saved?.body.pending) {
      setChanging(false);
      setValue('pin', '');
      setFocusRequest({ id: ids.pin });
    }
  });

  const confirmPin = handleSubmit(async ({ pin: typed }) => {
    if (!pending) return;
    setStatus('');
    const pin = typed.trim();
    const broken = await brokenRule('pin', { mobilePhone: pending.mobilePhone, pin });
    if (broken) {
      setError('pin', { type: broken.rule, message: ruleMessage(broken) }, { shouldFocus: true });
      return;
    }
    const saved = await send({ mobilePhone: pending.mobilePhone, pin });
    if (saved && !saved.body.pending) {
      setStatus(t('mobile-saved', { number: number(saved.body.mobilePhone ?? '') }));
      setValue('mobilePhone', '');
      setValue('pin', '');
      setFocusRequest({ id: ids.status });
    }
  });

  const resend = async () => {
    if (!pending) return;
    clearErrors();
    setStatus('');
    const saved = await send({ mobilePhone: pending.mobilePhone });
    if (saved?.body.pending) {
      setStatus(t('mobile-pin-resent', { number: number(saved.body.pending.mobilePhone) }));
      setValue('pin', '');
      setFocusRequest({ id: ids.pin });
    }
  };

  const resendButton = (className: string) => (
    <button
      type="button"
      className={className}
      disabled={!resendAllowed || mutation.isPending}
      aria-describedby={resendAllowed ? undefined : 'mobile-resend-hint'}
      onClick={() => void resend()}
    >
      {t('mobile-resend')}
    </button>
  );

  return (
    <div className="mobile-form">
      <p id={ids.status} className="sub-page__status" role="status" tabIndex={-1}>
        {status}
      </p>
      <FormErrors messages={formMessages} />
      <div className="card">
        <p className="mobile-form__current">
          {current ? t('mobile-current', { number: number(current) }) : t('mobile-none')}
        </p>
        {showPinStep ? (
          <form noValidate className="mobile-form__step" onSubmit={(event) => void confirmPin(event)}>
            {isVoid ? (
              <p id={ids.void} className="mobile-form__void" tabIndex={-1}>
                {t('mobile-pin-void', { number: number(pending.mobilePhone) })}
              </p>
            ) : (
              <p>
                {t('mobile-pin-sent', { number: number(pending.mobilePhone), time: time(pending.expiresAt) })}{' '}
                {t('mobile-attempts-left', { attempts: pending.attemptsLeft })}
              </p>
            )}
            <Field
              // A voided PIN's field is another, empty and disabled: nothing typed into it could count.
              key={isVoid ? 'void' : 'pin'}
              id={ids.pin}
              label={t('mobile-pin')}
              error={isVoid ? undefined : formState.errors.pin?.message}
              required
              requiredLabel={t('account-required')}
              inputProps={{
                ...(isVoid ? { name: 'pin', value: '', disabled: true, readOnly: true } : register('pin')),
                inputMode: 'numeric',
                autoComplete: 'one-time-code',
              }}
            />
            <div className="mobile-form__actions">
              {isVoid ? (
                resendButton('button button--primary')
              ) : (
                <button type="submit" className="button button--primary" disabled={mutation.isPending}>
                  {t('mobile-confirm')}
                </button>
              )}
              <div className="mobile-form__links">
                {!isVoid && resendButton('mobile-form__link')}
                <button
                  type="button"
                  className="mobile-form__link"
                  onClick={() => {
                    clearErrors();
                    setFormMessages([]);
                    setChanging(true);
                    setFocusRequest({ id: ids.mobilePhone });
                  }}
                >
                  {t('mobile-other-number')}
                </button>
              </div>
            </div>
            {!resendAllowed && (
              <p id="mobile-resend-hint" className="field__hint">
                {t('mobile-resend-wait', { time: time(pending.resendAvailableAt) })}
              </p>
            )}
          </form>
        ) : (
          <form noValidate className="mobile-form__step" onSubmit={(event) => void requestPin(event)}>
            <Field
              id={ids.mobilePhone}
              label={t('mobile-new')}
              hint={t('mobile-new-hint')}
              error={formState.errors.mobilePhone?.message}
              required
              requiredLabel={t('account-required')}
              inputProps={{ ...register('mobilePhone'), type: 'tel', autoComplete: 'tel', inputMode: 'tel' }}
            />
            <div className="mobile-form__actions">
              <button type="submit" className="button button--primary" disabled={mutation.isPending}>
                {t('mobile-send-pin')}
              </button>
            </div>
          </form>
        )}
      </div>
    </div>
  );
}
