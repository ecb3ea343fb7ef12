import type { InputHTMLAttributes, ReactNode, Ref, SelectHTMLAttributes } from 'react';
import { describeField } from './field-description';
import { errorSummaryAttribute } from './use-error-focus';
import './form.css';

export interface FieldFrame {
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

export type ControlProps<Attributes> = Omit<Attributes, 'id' | 'aria-invalid' | 'aria-describedby'> & {
  // react-hook-form's register() hands out a ref; React 19 passes it through as a prop.
  ref?: Ref<never>;
};

export function Label({
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

export function Message({
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

export const fieldClass = (frame: FieldFrame, variant = '') =>
  `field${variant}${frame.error || frame.errorSummaryId ? ' field--invalid' : ''}${frame.className ? ` ${frame.className}` : ''}`;

/**
 * Label, hint, the control and its error, one under the other; `control` receives the ids and ARIA
 * attributes that tie it to the hint and the error.
 */
export function StackedField({
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
    <div id={id} className="form-errors" role="alert" tabIndex={-1} {...{ [errorSummaryAttribute]: '' }}>
      <ul>
        {messages.map((message) => (
          <li key={message}>{message}</li>
        ))}
      </ul>
    </div>
  );
}
