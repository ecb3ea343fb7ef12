import type { Ref } from 'react';
import { useTranslation } from '@/lib/i18n/use-translation';
import type { ConsentDefinition } from '@roadpass/contracts';
import { SwitchField } from '@/components/form/switch-field';

/** What the row says after a save: done (with an Undo for a while) or not saved. */
export interface ConsentFeedback {
  id: number;
  slug: string;
  kind: 'saved' | 'failed';
  /** The answer that was saved, or that could not be saved. */
  granted: boolean;
  undoable: boolean;
}

interface ConsentSwitchProps {
  definition: ConsentDefinition;
  granted: boolean;
  saving: boolean;
  /** What withdrawing or giving this consent does beyond itself (shown before the customer toggles). */
  note?: string;
  feedback?: ConsentFeedback;
  undoRef: Ref<HTMLButtonElement>;
  onToggle(granted: boolean): void;
  onUndo(): void;
}

export const consentSwitchId = (slug: string) => `consent-${slug}`;

/**
 * One consent as a switch, its description (and note) read with it, and a line saying what happened:
 * a polite live region that stays in the page (so that its change is announced), and an alert when
 * the change was not saved. While its save runs, the switch keeps focus but takes no press.
 */
export function ConsentSwitch({
  definition,
  granted,
  saving,
  note,
  feedback,
  undoRef,
  onToggle,
  onUndo,
}: ConsentSwitchProps) {
  const { t } = useTranslation();
  const id = consentSwitchId(definition.slug);
  const title = definition.title;
  const saved =
    feedback?.kind === 'saved'
      ? t(feedback.granted ? 'privacy-consent-on' : 'privacy-consent-off', { title })
      : '';

  return (
    <div className="privacy__consent" aria-busy={saving || undefined}>
      <SwitchField
        id={id}
        label={title}
        hint={definition.description}
        note={note}
        checked={granted}
        busy={saving}
        onChange={onToggle}
      />
      <div className="privacy__feedback">
        <p id={`${id}-status`} className="privacy__feedback-text" aria-live="polite" aria-atomic="true">
          {saved}
        </p>
        {feedback?.kind === 'saved' && feedback.undoable && !saving && (
          <button
            ref={undoRef}
            type="button"
            className="privacy__undo"
            aria-describedby={`${id}-status`}
            onClick={onUndo}
          >
            {t('privacy-consent-undo')}
          </button>
        )}
      </div>
      {feedback?.kind === 'failed' && (
        <p role="alert" className="privacy__failed">
          {t('privacy-consent-save-error', { title })}
        </p>
      )}
    </div>
  );
}
