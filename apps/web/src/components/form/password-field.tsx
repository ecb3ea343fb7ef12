import { useState, type InputHTMLAttributes } from 'react';
import { StackedField, type ControlProps, type FieldFrame } from './field';

/**
 * A password input with a "Show password" icon button inside its frame. The button's name says what
 * it will do ("Show password" / "Hide password"), so it needs no pressed state; it keeps the focus
 * while the input changes type.
 */
export function PasswordField({
  inputProps,
  showLabel,
  hideLabel,
  ...frame
}: FieldFrame & {
  inputProps: ControlProps<InputHTMLAttributes<HTMLInputElement>>;
  showLabel: string;
  hideLabel: string;
}) {
  const [visible, setVisible] = useState(false);
  return (
    <StackedField
      frame={frame}
      control={(controlProps) => (
        <div className="field__control">
          <input
            className="field__input field__input--with-button"
            required={frame.required}
            spellCheck={false}
            autoCapitalize="none"
            {...inputProps}
            type={visible ? 'text' : 'password'}
            {...controlProps}
          />
          <button
            type="button"
            className="field__reveal"
            aria-label={visible ? hideLabel : showLabel}
            aria-controls={frame.id}
            onClick={() => setVisible((shown) => !shown)}
          >
            {visible ? <EyeClosedIcon /> : <EyeIcon />}
          </button>
        </div>
      )}
    />
  );
}

function EyeIcon() {
  return (
    <svg viewBox="0 0 24 24" width="24" height="24" aria-hidden="true" focusable="false">
      <path
        fill="none"
        stroke="currentColor"
        strokeWidth="2"
        strokeLinecap="round"
        strokeLinejoin="round"
        d="M2 12s3.6-7 10-7 10 7 10 7-3.6 7-10 7S2 12 2 12Z M12 15a3 3 0 1 0 0-6 3 3 0 0 0 0 6Z"
      />
    </svg>
  );
}

function EyeClosedIcon() {
  return (
    <svg viewBox="0 0 24 24" width="24" height="24" aria-hidden="true" focusable="false">
      <path
        fill="none"
        stroke="currentColor"
        strokeWidth="2"
        strokeLinecap="round"
        strokeLinejoin="round"
        d="M3 3l18 18 M10.6 5.1A10.8 10.8 0 0 1 12 5c6.4 0 10 7 10 7a17.6 17.6 0 0 1-3.2 4.1 M6.6 6.6C3.8 8.4 2 12 2 12s3.6 7 10 7a9.7 9.7 0 0 0 5.4-1.6 M9.9 9.9a3 3 0 0 0 4.2 4.2"
      />
    </svg>
  );
}
