import { useEffect, useRef, useState } from 'react';
import { useTranslation } from '@/lib/i18n/use-translation';
import { useQuery } from '@tanstack/react-query';
import { LOYALTY_PROCESS_ID, type ConsentDefinition, type SessionUser } from '@roadpass/contracts';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { Spinner } from '@/components/spinner';
import { useHttp } from '@/lib/http';
import { useAppStore } from '@/lib/state/app-store';
import { editableConsentsQuery } from '../api/get-editable-consents';
import { ownConsentsQuery } from '../api/get-own-consents';
import { useSavingConsents, useToggleConsent } from '../api/toggle-consent';
import { ConsentSwitch, consentSwitchId, type ConsentFeedback } from './consent-switch';
import './privacy.css';

/** How long a saved change offers its Undo (it stays while the Undo button has focus). */
export const UNDO_MS = 10_000;

/**
 * The note next to a consent that a process the customer takes part in cannot do without. The loyalty
 * programme's core consent is its membership (decision 0006): withdrawing it ends the membership on the
 * server, granting it starts one.
 */
function noteFor(definition: ConsentDefinition, granted: boolean): string | undefined {
  if (!endsMembership(definition)) return undefined;
  return granted ? 'privacy-loyalty-core-leave' : 'privacy-loyalty-core-join';
}

/** Withdrawing this consent ends the loyalty membership: the one change that is asked about first. */
const endsMembership = (definition: ConsentDefinition) =>
  definition.required && definition.processes.includes(LOYALTY_PROCESS_ID);

/**
 * Every consent of the customer's legal entity that the customer may edit, in the app's language, as
 * switches saved at once (one PATCH per consent), with Undo, rollback on failure, and loading, error
 * and empty states.
 */
export function ConsentSettings({ user }: { user: SessionUser }) {
  const { t } = useTranslation();
  const http = useHttp();
  const language = useAppStore((state) => state.activeLanguage);
  const definitions = useQuery(editableConsentsQuery(http, user.legalEntityId, language));
  const answers = useQuery(ownConsentsQuery(http, user.uuid));
  const [feedback, setFeedback] = useState<ConsentFeedback | null>(null);
  const feedbackIds = useRef(0);
  const undoRef = useRef<HTMLButtonElement>(null);
  const toggle = useToggleConsent(user, {
    onSaved: (saved, change) =>
      setFeedback({
        id: ++feedbackIds.current,
        slug: saved.slug,
        kind: 'saved',
        granted: saved.granted,
        undoable: !change.undo,
      }),
    onFailed: (change) =>
      setFeedback({
        id: ++feedbackIds.current,
        slug: change.slug,
        kind: 'failed',
        granted: change.granted,
        undoable: false,
      }),
  });
  const saving = useSavingConsents(user.uuid);
  // Leaving the programme asks first (what the customer loses), then saves with the usual Undo.
  const [leaving, setLeaving] = useState<string | null>(null);
  const closeLeaving = () => {
    const slug = leaving;
    setLeaving(null);
    // Back on the switch once the dialog has closed (a modal dialog keeps the focus until then).
    if (slug) requestAnimationFrame(() => document.getElementById(consentSwitchId(slug))?.focus());
  };

  // The Undo goes after a while, but never from under the keyboard: while focused it waits.
  useEffect(() => {
    if (!feedback?.undoable) return;
    let timer: ReturnType<typeof setTimeout>;
    const expire = () => {
      if (undoRef.current && undoRef.current === document.activeElement) {
        timer = setTimeout(expire, 1000);
        return;
      }
      setFeedback((now) => (now?.id === feedback.id ? { ...now, undoable: false } : now));
    };
    timer = setTimeout(expire, UNDO_MS);
    return () => clearTimeout(timer);
  }, [feedback]);

  const change = (slug: string, granted: boolean, undo = false) => {
    setFeedback((now) => (now?.slug === slug ? null : now));
    toggle.mutate({ slug, granted, undo });
  };

  const failed = definitions.isError || answers.isError;
  const retrying = failed && (definitions.isFetching || answers.isFetching);
  const loading =
    definitions.isPending || answers.isPending || (answers.isFetching && !answers.isFetchedAfterMount);

  let body;
  if (failed) {
    body = (
      <div className="privacy__load-error">
        <p role="alert" className="privacy__error">
          {t('privacy-consents-load-error')}
        </p>
        <button
          type="button"
          className="button button--secondary"
          aria-disabled={retrying || undefined}
          onClick={() => {
            if (retrying) return;
            if (definitions.isError) void definitions.refetch();
            if (answers.isError) void answers.refetch();
          }}
        >
          {t('privacy-consents-retry')}
        </button>
      </div>
    );
  } else if (loading) {
    body = <Spinner />;
  } else if (definitions.data.length === 0) {
    body = <p className="privacy__text">{t('privacy-consents-empty')}</p>;
  } else {
    const granted = new Map(answers.data.map((consent) => [consent.slug, consent.granted]));
    body = (
      <div className="privacy__consents">
        {definitions.data.map((definition) => {
          const isGranted = granted.get(definition.slug) ?? false;
          const note = noteFor(definition, isGranted);
          return (
            <ConsentSwitch
              key={definition.slug}
              definition={definition}
              granted={isGranted}
              saving={saving.includes(definition.slug)}
              note={note && t(note)}
              feedback={feedback?.slug === definition.slug ? feedback : undefined}
              undoRef={undoRef}
              onToggle={(next) => {
                if (!next && endsMembership(definition)) setLeaving(definition.slug);
                else change(definition.slug, next);
              }}
              onUndo={() => {
                if (!feedback) return;
                // The Undo button goes away: the switch it belongs to takes the focus.
                document.getElementById(consentSwitchId(definition.slug))?.focus();
                change(definition.slug, !feedback.granted, true);
              }}
            />
          );
        })}
      </div>
    );
  }

  return (
    <section className="card privacy__section" aria-labelledby="consents-title">
      <h2 id="consents-title" className="privacy__title">
        {t('privacy-consents-title')}
      </h2>
      <p className="privacy__text privacy__intro">{t('privacy-consents-intro')}</p>
      {body}
      <ConfirmDialog
        open={leaving !== null}
        title={t('privacy-loyalty-leave-title')}
        confirmLabel={t('privacy-loyalty-leave-confirm')}
        cancelLabel={t('privacy-loyalty-leave-cancel')}
        onConfirm={() => {
          if (leaving) change(leaving, false);
          closeLeaving();
        }}
        onCancel={closeLeaving}
      >
        <p>{t('privacy-loyalty-leave-intro')}</p>
        <ul>
          <li>{t('privacy-loyalty-leave-earn')}</li>
          <li>{t('privacy-loyalty-leave-hidden')}</li>
          <li>{t('privacy-loyalty-leave-points')}</li>
        </ul>
        <p>{t('privacy-loyalty-leave-rejoin')}</p>
      </ConfirmDialog>
    </section>
  );
}
