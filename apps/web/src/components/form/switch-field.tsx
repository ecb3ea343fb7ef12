import type { ReactNode } from 'react';
import { describeField } from './field-description';
import { fieldClass, Message } from './field';

/**
 * An on/off choice saved at once: a checkbox drawn as a switch (role="switch"), its label beside it,
 * its description (and note) read with it. While its change is saved it stays focusable and takes no
 * press (aria-disabled, not disabled: a disabled control drops the keyboard focus to the page).
 */
export function SwitchField({
  id,
  label,
  hint,
  note,
  error,
  checked,
  busy = false,
  disabled = false,
  onChange,
  name,
  className,
}: {
  id: string;
  label: ReactNode;
  hint?: ReactNode;
  /** What the choice does beyond itself, read after the hint. */
  note?: ReactNode;
  error?: string | undefined;
  checked: boolean;
  busy?: boolean;
  /** A choice that cannot be changed at all (e.g. essential cookies, always on). */
  disabled?: boolean;
  onChange: (checked: boolean) => void;
  name?: string;
  className?: string;
}) {
  const { hintId, errorId, controlProps } = describeField(id, { hint, error });
  const noteId = note ? `${id}-note` : undefined;
  const describedBy = [controlProps['aria-describedby'], noteId].filter(Boolean).join(' ') || undefined;
  return (
    <div className={fieldClass({ id, label, error, ...(className ? { className } : {}) }, ' field--switch')}>
      <div className="field__switch-row">
        <label htmlFor={id} className="field__label field__switch-label">
          {label}
        </label>
        <input
          type="checkbox"
          role="switch"
          className="field__switch"
          name={name}
          checked={checked}
          {...controlProps}
          aria-describedby={describedBy}
          aria-disabled={busy || undefined}
          disabled={disabled}
          onChange={(event) => {
            if (!busy) onChange(event.target.checked);
          }}
        />
      </div>
      <Message id={hintId} className="field__hint">
        {hint}
      </Message>
      <Message id={noteId} className="field__note">
        {note}
      </Message>
      <Message id={errorId} className="field__error">
        {error}
      </Message>
    </div>
  );
}
