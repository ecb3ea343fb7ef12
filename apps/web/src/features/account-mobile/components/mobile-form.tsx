import { useEffect, useMemo, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from '@/lib/i18n/use-translation';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { checkValues, compileRules, type MobileResponse, type PendingMobilePhone } from '@roadpass/contracts';
import { Field, FormErrors } from '@/components/form';
import { Spinner } from '@/components/spinner';
import { constraintViolationsOf } from '@/lib/forms/constraint-violations';
import {
  customValidatorsFor,
  namesCustomValidators,
  useCustomValidators,
} from '@/lib/forms/load-custom-validators';
import { isOfflineError, useHttp } from '@/lib/http';
import { mobileKeys, mobileQuery, updateMobile } from '../api/mobile-queries';
import './mobile-form.css';

interface Values {
  mobilePhone: string;
  pin: string;
}

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
 * Spec §5 / product decisions §5: change the mobile number in two steps, the number (a PIN is sent to
 * it by SMS), then the PIN. The server's texts explain a wrong or expired PIN.
 */
export function MobileForm() {
  const { t, i18n } = useTranslation();
  const http = useHttp();
  const queryClient = useQueryClient();
  const state = useQuery(mobileQuery(http));
  const [changing, setChanging] = useState(false);
  const [status, setStatus] = useState('');
  const [formMessages, setFormMessages] = useState<string[]>([]);
  const form = useForm<Values>({ defaultValues: { mobilePhone: '', pin: '' } });
  const { register, handleSubmit, setError, formState, setFocus, setValue, clearErrors } = form;
  const pending: PendingMobilePhone | null = state.data?.body.pending ?? null;
  const resendAllowed = useReached(pending?.resendAvailableAt);
  const mutation = useMutation({
    mutationFn: (update: { mobilePhone: string; pin?: string }) => updateMobile(http, update),
  });
  const rules = useMemo(() => compileRules(state.data?.meta.metaDataList ?? []), [state.data]);
  // The validators of our own, only when the served rules name one (their chunk comes after the form).
  useCustomValidators(namesCustomValidators(rules));

  if (state.isPending) return <Spinner />;
  if (state.isError) {
    return (
      <p role="alert" className="mobile-form__error">
        {t('account-load-error')}
      </p>
    );
  }

  const time = (iso: string) =>
    new Intl.DateTimeFormat(i18n.language, { hour: '2-digit', minute: '2-digit' }).format(new Date(iso));

  // The field on screen: a violation of any other attribute is shown above the form.
  const shownField: keyof Values = pending !== null && !changing ? 'pin' : 'mobilePhone';

  const send = async (update: { mobilePhone: string; pin?: string }): Promise<MobileResponse | null> => {
    setFormMessages([]);
    try {
      const saved = await mutation.mutateAsync(update);
      queryClient.setQueryData(mobileKeys.state(), saved);
      return saved;
    } catch (error) {
      const violations = constraintViolationsOf(error);
      if (violations.length === 0) {
        setFormMessages([t(isOfflineError(error) ? 'account-save-offline' : 'account-save-error')]);
        return null;
      }
      const rest: string[] = [];
      let focused = false;
      for (const violation of violations) {
        const field = violation.attribute;
        if (field === shownField) {
          setError(field, { type: 'server', message: violation.text });
          if (!focused) setFocus(field);
          focused = true;
        } else if (!rest.includes(violation.text)) rest.push(violation.text);
      }
      setFormMessages(rest);
      // A wrong PIN changes the attempts left: show the server's count.
      void queryClient.invalidateQueries({ queryKey: mobileKeys.state() });
      return null;
    }
  };

  const requestPin = handleSubmit(async ({ mobilePhone }) => {
    setStatus('');
    // A submit before the validators' chunk has come waits for it; should it not load, the server
    // checks the same rules and its 400 comes back onto the field.
    const customValidators = await customValidatorsFor(rules);
    const violations = checkValues(
      rules,
      { mobilePhone },
      { customValidators, unknownCustom: 'skip' },
    ).filter((violation) => violation.field === 'mobilePhone');
    if (violations.length > 0) {
      setError('mobilePhone', {
        type: violations[0]!.rule,
        message: t(violations[0]!.rule === 'required' ? 'mobile-rule-required' : 'mobile-rule-invalid'),
      });
      setFocus('mobilePhone');
      return;
    }
    const saved = await send({ mobilePhone: mobilePhone.trim() });
    if (saved?.body.pending) {
      setChanging(false);
      setValue('pin', '');
      setFocus('pin');
    }
  });

  const confirmPin = handleSubmit(async ({ pin }) => {
    if (!pending) return;
    if (!/^\d{4,8}$/.test(pin.trim())) {
      setError('pin', { type: 'pattern', message: t('mobile-pin-invalid') });
      setFocus('pin');
      return;
    }
    const saved = await send({ mobilePhone: pending.mobilePhone, pin: pin.trim() });
    if (saved && !saved.body.pending) {
      setStatus(t('mobile-saved', { number: saved.body.mobilePhone ?? '' }));
      setValue('mobilePhone', '');
      setValue('pin', '');
    }
  });

  const resend = async () => {
    if (!pending) return;
    clearErrors();
    const saved = await send({ mobilePhone: pending.mobilePhone });
    if (saved?.body.pending) setStatus(t('mobile-pin-resent', { number: saved.body.pending.mobilePhone }));
  };

  const current = state.data.body.mobilePhone;
  const showPinStep = pending !== null && !changing;

  return (
    <div className="mobile-form">
      <p className="sub-page__status" role="status">
        {status}
      </p>
      <FormErrors messages={formMessages} />
      <div className="card">
        <p className="mobile-form__current">
          {current ? t('mobile-current', { number: current }) : t('mobile-none')}
        </p>
        {showPinStep ? (
          <form noValidate className="mobile-form__step" onSubmit={(event) => void confirmPin(event)}>
            <p>
              {t('mobile-pin-sent', { number: pending.mobilePhone, time: time(pending.expiresAt) })}{' '}
              {t('mobile-attempts-left', { attempts: pending.attemptsLeft })}
            </p>
            <Field
              id="mobile-pin"
              label={t('mobile-pin')}
              error={formState.errors.pin?.message}
              required
              requiredLabel={t('account-required')}
              inputProps={{
                ...register('pin'),
                inputMode: 'numeric',
                autoComplete: 'one-time-code',
                pattern: '[0-9]*',
                maxLength: 8,
              }}
            />
            <div className="mobile-form__actions">
              <button type="submit" className="button button--primary" disabled={mutation.isPending}>
                {t('mobile-confirm')}
              </button>
              <button
                type="button"
                className="button button--secondary"
                disabled={!resendAllowed || mutation.isPending}
                aria-describedby={resendAllowed ? undefined : 'mobile-resend-hint'}
                onClick={() => void resend()}
              >
                {t('mobile-resend')}
              </button>
              <button
                type="button"
                className="button button--secondary"
                onClick={() => {
                  clearErrors();
                  setChanging(true);
                }}
              >
                {t('mobile-other-number')}
              </button>
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
              id="mobile-number"
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
