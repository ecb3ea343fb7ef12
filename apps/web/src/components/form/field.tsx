import {
  useState,
  type InputHTMLAttributes,
  type ReactNode,
  type Ref,
  type SelectHTMLAttributes,
  type TextareaHTMLAttributes,
} from 'react';
import { describeField } from './field-description';
import './form.css';

interface FieldFrame {
  /** The control's id; the hint and error ids are derived from it. */
  id: string;
  label: ReactNode;
  hint?: ReactNode;
  /** The message to show; the control is marked invalid while there is one. */
  error?: string | undefined;
  required?: boolean;
  /** Shown after the label of a required field, e.g. "(required)" in the customer's language. */
  requiredLabel?: string;
  /** The id of a message shown elsewhere that rejects this field too (see describeField). */
  errorSummaryId?: string | undefined;
  className?: string;
}

type ControlProps<Attributes> = Omit<Attributes, 'id' | 'aria-invalid' | 'aria-describedby'> & {
  // react-hook-form's register() hands out a ref; React 19 passes it through as a prop.
  ref?: Ref<never>;
};

function Label({
  htmlFor,
  label,
  required,
  requiredLabel,
}: Pick<FieldFrame, 'label' | 'required' | 'requiredLabel'> & { htmlFor: string }) {
  return (
    <label htmlFor={htmlFor} className="field__label">
      {label}
      {/* The space outside the span: inside it, the accessible name reads "Name(required)". */}
      {required && requiredLabel && (
        <>
          {' '}
          <span className="field__required">{requiredLabel}</span>
        </>
      )}
    </label>
  );
}

function Message({
  id,
  className,
  children,
}: {
  id: string | undefined;
  className: string;
  children: ReactNode;
}) {
  return id ? (
    <p id={id} className={className}>
      {children}
    </p>
  ) : null;
}

const fieldClass = (frame: FieldFrame, variant = '') =>
  `field${variant}${frame.error || frame.errorSummaryId ? ' field--invalid' : ''}${frame.className ? ` ${frame.className}` : ''}`;

/**
 * Label, hint, the control and its error, one under the other; `control` receives the ids and ARIA
 * attributes that tie it to the hint and the error.
 */
function StackedField({
  frame,
  control,
}: {
  frame: FieldFrame;
  control: (controlProps: ReturnType<typeof describeField>['controlProps']) => ReactNode;
}) {
  const { hintId, errorId, controlProps } = describeField(frame.id, frame);
  return (
    <div className={fieldClass(frame)}>
      <Label htmlFor={frame.id} {...frame} />
      <Message id={hintId} className="field__hint">
        {frame.hint}
      </Message>
      {control(controlProps)}
      <Message id={errorId} className="field__error">
        {frame.error}
      </Message>
    </div>
  );
}

/** A labelled text input with its hint and error (epic-stack's `Field`). */
export function Field({
  inputProps,
  ...frame
}: FieldFrame & { inputProps: ControlProps<InputHTMLAttributes<HTMLInputElement>> }) {
  return (
    <StackedField
      frame={frame}
      control={(controlProps) => (
        <input className="field__input" required={frame.required} {...inputProps} {...controlProps} />
      )}
    />
  );
}

/** A labelled text area with its hint and error. */
export function TextAreaField({
  textAreaProps,
  ...frame
}: FieldFrame & { textAreaProps: ControlProps<TextareaHTMLAttributes<HTMLTextAreaElement>> }) {
  return (
    <StackedField
      frame={frame}
      control={(controlProps) => (
        <textarea
          rows={5}
          required={frame.required}
          {...textAreaProps}
          className={`field__input field__textarea${textAreaProps.className ? ` ${textAreaProps.className}` : ''}`}
          {...controlProps}
        />
      )}
    />
  );
}

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

/** A checkbox with its label beside it; the hint reads as the choice's description. */
export function CheckboxField({
  inputProps,
  ...frame
}: FieldFrame & { inputProps: ControlProps<InputHTMLAttributes<HTMLInputElement>> }) {
  const { hintId, errorId, controlProps } = describeField(frame.id, frame);
  return (
    <div className={fieldClass(frame, ' field--checkbox')}>
      <div className="field__choice">
        <input
          type="checkbox"
          className="field__checkbox"
          required={frame.required}
          {...inputProps}
          {...controlProps}
        />
        <Label htmlFor={frame.id} {...frame} />
      </div>
      <Message id={hintId} className="field__hint field__hint--indented">
        {frame.hint}
      </Message>
      <Message id={errorId} className="field__error field__error--indented">
        {frame.error}
      </Message>
    </div>
  );
}

export interface SelectOption {
  value: string;
  label: string;
}

/** A labelled select with its hint and error. */
export function SelectField({
  selectProps,
  options,
  ...frame
}: FieldFrame & {
  selectProps: ControlProps<SelectHTMLAttributes<HTMLSelectElement>>;
  options: readonly SelectOption[];
}) {
  return (
    <StackedField
      frame={frame}
      control={(controlProps) => (
        <select
          className="field__input field__select"
          required={frame.required}
          {...selectProps}
          {...controlProps}
        >
          {options.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      )}
    />
  );
}

/**
 * The form's error summary: messages that belong to no field (a server rule about the whole form, a
 * save that failed), announced as an alert. It takes the focus when no field is marked invalid
 * (useErrorFocus); `id` lets fields name it as their error (errorSummaryId).
 */
export function FormErrors({ messages, id }: { messages: readonly string[]; id?: string }) {
  if (messages.length === 0) return null;
  return (
    <div id={id} className="form-errors" role="alert" tabIndex={-1} data-error-summary="">
      <ul>
        {messages.map((message) => (
          <li key={message}>{message}</li>
        ))}
      </ul>
    </div>
  );
}
