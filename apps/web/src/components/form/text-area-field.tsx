import type { TextareaHTMLAttributes } from 'react';
import { StackedField, type ControlProps, type FieldFrame } from './field';

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
