import { useId, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { PASSKEY_NAME_MAX_LENGTH, type Passkey } from '@roadpass/contracts';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { Field, FormErrors, SubmitButton, useErrorFocus } from '@/components/form';
import { LoadError } from '@/components/load-error';
import { Spinner } from '@/components/spinner';
import { needsRecentSignIn, useStepUpAction } from '@/lib/forms/step-up';
import { isOfflineError, useHttp } from '@/lib/http';
import { formatMoment } from '@/lib/i18n/format-moment';
import { useTranslation } from '@/lib/i18n/use-translation';
import {
  addPasskey,
  browserSupportsPasskeys,
  passkeysQuery,
  removePasskey,
  renamePasskey,
} from '../api/passkeys-api';
import { passkeyKeys } from '../api/query-keys';
import './passkeys-page.css';

type Translate = ReturnType<typeof useTranslation>['t'];

/** The message for a failed add, rename or remove, in the customer's words. */
function failureText(t: Translate, error: unknown, fallback: string): string {
  if (needsRecentSignIn(error)) return t('passkeys-sign-in-again');
  if (isOfflineError(error)) return t('account-save-offline');
  const name = (error as { name?: string; code?: string } | null)?.name;
  const code = (error as { code?: string } | null)?.code;
  // SimpleWebAuthn's codes: the authenticator already holds a passkey of this account; cancelled.
  if (code === 'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED' || name === 'InvalidStateError')
    return t('passkeys-add-exists');
  if (name === 'NotAllowedError' || name === 'AbortError') return t('passkeys-add-cancelled');
  return t(fallback);
}

/**
 * docs/product/security.md#passkeys: the customer's passkeys (name, added, last used), add one with the
 * browser's own dialog, rename, remove. Adding and removing need a recent sign-in.
 */
export function PasskeysPage() {
  const { t, i18n } = useTranslation();
  const http = useHttp();
  const queryClient = useQueryClient();
  const list = useQuery(passkeysQuery(http));
  const [status, setStatus] = useState('');
  const [problem, setProblem] = useState<string[]>([]);
  const [removing, setRemoving] = useState<Passkey | null>(null);
  const [renaming, setRenaming] = useState<string | null>(null);
  const addButton = useRef<HTMLButtonElement>(null);
  const problemRef = useRef<HTMLDivElement>(null);
  const supported = browserSupportsPasskeys();
  const stepUp = useStepUpAction();

  const refresh = () => queryClient.invalidateQueries({ queryKey: passkeyKeys.list() });
  const report = (messages: string[]) => {
    setProblem(messages);
    if (messages.length)
      requestAnimationFrame(() => problemRef.current?.querySelector<HTMLElement>('[tabindex]')?.focus());
  };

  const add = useMutation({ mutationFn: () => addPasskey(http) });
  const remove = useMutation({ mutationFn: (id: string) => removePasskey(http, id) });

  const date = (iso: string) => formatMoment(iso, i18n.language);

  const onAdd = async () => {
    if (add.isPending) return;
    setStatus('');
    report([]);
    try {
      const passkey = await add.mutateAsync();
      await refresh();
      setStatus(t('passkeys-added', { name: passkey.name }));
    } catch (error) {
      if (stepUp(error)) return; // on the way to the sign-in, back here after it
      report([failureText(t, error, 'passkeys-add-failed')]);
    }
  };

  const onRemove = async (passkey: Passkey) => {
    setRemoving(null);
    setStatus('');
    report([]);
    try {
      await remove.mutateAsync(passkey.id);
      await refresh();
      setStatus(t('passkeys-removed', { name: passkey.name }));
      addButton.current?.focus();
    } catch (error) {
      if (stepUp(error)) return;
      report([failureText(t, error, 'account-save-error')]);
    }
  };

  let body;
  if (list.isPending) body = <Spinner />;
  else if (list.isError)
    body = <LoadError error={list.error} onRetry={() => void list.refetch()} retrying={list.isFetching} />;
  else if (list.data.length === 0) body = <p className="passkeys__empty">{t('passkeys-empty')}</p>;
  else
    body = (
      <ul className="passkeys__list">
        {list.data.map((passkey) => (
          <li key={passkey.id} className="passkeys__item">
            {renaming === passkey.id ? (
              <RenameForm
                passkey={passkey}
                onDone={(renamed) => {
                  setRenaming(null);
                  if (renamed) setStatus(t('passkeys-renamed', { name: renamed.name }));
                }}
              />
            ) : (
              <>
                <h3 className="passkeys__name">{passkey.name}</h3>
                <dl className="passkeys__facts">
                  <div>
                    <dt>{t('passkeys-added-at')}</dt>
                    <dd>{date(passkey.createdAt)}</dd>
                  </div>
                  <div>
                    <dt>{t('passkeys-last-used')}</dt>
                    <dd>{passkey.lastUsedAt ? date(passkey.lastUsedAt) : t('passkeys-never-used')}</dd>
                  </div>
                </dl>
                <div className="passkeys__actions">
                  <button
                    type="button"
                    className="button button--secondary"
                    aria-label={t('passkeys-rename-named', { name: passkey.name })}
                    onClick={() => {
                      setStatus('');
                      setRenaming(passkey.id);
                    }}
                  >
                    {t('passkeys-rename')}
                  </button>
                  <button
                    type="button"
                    className="button button--secondary"
                    aria-label={t('passkeys-remove-named', { name: passkey.name })}
                    onClick={() => setRemoving(passkey)}
                  >
                    {t('passkeys-remove')}
                  </button>
                </div>
              </>
            )}
          </li>
        ))}
      </ul>
    );

  return (
    <div className="passkeys">
      <p className="sub-page__lead">{t('passkeys-intro')}</p>
      <p className="sub-page__status" role="status">
        {status}
      </p>
      <div ref={problemRef}>
        <FormErrors messages={problem} />
      </div>
      <section className="card passkeys__card" aria-labelledby="passkeys-list-title">
        <h2 id="passkeys-list-title" className="passkeys__title">
          {t('passkeys-list-title')}
        </h2>
        {body}
        {supported ? (
          <button
            ref={addButton}
            type="button"
            className="button button--primary passkeys__add"
            aria-disabled={add.isPending || undefined}
            onClick={() => void onAdd()}
          >
            {t(add.isPending ? 'passkeys-adding' : 'passkeys-add')}
          </button>
        ) : (
          <p className="passkeys__unsupported">{t('passkeys-unsupported')}</p>
        )}
      </section>
      <ConfirmDialog
        open={removing !== null}
        title={t('passkeys-remove-title')}
        confirmLabel={t('passkeys-remove-confirm')}
        cancelLabel={t('passkeys-remove-cancel')}
        onConfirm={() => removing && void onRemove(removing)}
        onCancel={() => setRemoving(null)}
      >
        <p>{t('passkeys-remove-text', { name: removing?.name ?? '' })}</p>
      </ConfirmDialog>
    </div>
  );
}

/** Renames one passkey in place; Escape or Cancel goes back without a change. */
function RenameForm({ passkey, onDone }: { passkey: Passkey; onDone: (renamed?: Passkey) => void }) {
  const { t } = useTranslation();
  const http = useHttp();
  const queryClient = useQueryClient();
  const id = useId();
  const [messages, setMessages] = useState<string[]>([]);
  const { containerRef, focusErrors } = useErrorFocus();
  const { register, handleSubmit, setError, formState } = useForm<{ name: string }>({
    defaultValues: { name: passkey.name },
    shouldFocusError: false,
  });
  const rename = useMutation({ mutationFn: (name: string) => renamePasskey(http, passkey.id, name) });

  const onSubmit = handleSubmit(async ({ name }) => {
    if (rename.isPending) return;
    setMessages([]);
    const trimmed = name.trim();
    if (!trimmed || trimmed.length > PASSKEY_NAME_MAX_LENGTH) {
      setError('name', {
        message: t(trimmed ? 'passkeys-name-too-long' : 'passkeys-name-required', {
          max: PASSKEY_NAME_MAX_LENGTH,
        }),
      });
      focusErrors();
      return;
    }
    try {
      const renamed = await rename.mutateAsync(trimmed);
      await queryClient.invalidateQueries({ queryKey: passkeyKeys.list() });
      onDone(renamed);
    } catch (error) {
      setMessages([failureText(t, error, 'account-save-error')]);
      focusErrors();
    }
  });

  return (
    <form
      ref={containerRef}
      className="passkeys__rename"
      noValidate
      onSubmit={(event) => void onSubmit(event)}
      onKeyDown={(event) => {
        if (event.key === 'Escape') onDone();
      }}
    >
      <FormErrors messages={messages} />
      <Field
        id={`${id}-name`}
        label={t('passkeys-name')}
        error={formState.errors.name?.message}
        required
        requiredLabel={t('account-required')}
        inputProps={{ ...register('name'), autoComplete: 'off', maxLength: 200, autoFocus: true }}
      />
      <div className="passkeys__actions">
        <SubmitButton className="button button--primary" busy={rename.isPending}>
          {t('passkeys-rename-save')}
        </SubmitButton>
        <button type="button" className="button button--secondary" onClick={() => onDone()}>
          {t('passkeys-rename-cancel')}
        </button>
      </div>
    </form>
  );
}
