/** The ids and ARIA attributes that tie a control to its hint and its error, written once for every field. */
export interface FieldDescription {
  hintId: string | undefined;
  errorId: string | undefined;
  /** Spread onto the control. */
  controlProps: {
    id: string;
    'aria-invalid': true | undefined;
    'aria-describedby': string | undefined;
    'aria-required': true | undefined;
  };
}

export function describeField(
  id: string,
  {
    hint,
    error,
    required,
    errorSummaryId,
  }: {
    hint?: unknown;
    error?: string | undefined;
    required?: boolean | undefined;
    /**
     * The control is rejected by a message shown elsewhere (one summary that names several fields):
     * it is marked invalid and described by that message.
     */
    errorSummaryId?: string | undefined;
  },
): FieldDescription {
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const describedBy = [hintId, errorId, errorSummaryId].filter(Boolean).join(' ');
  return {
    hintId,
    errorId,
    controlProps: {
      id,
      'aria-invalid': error || errorSummaryId ? true : undefined,
      'aria-describedby': describedBy || undefined,
      'aria-required': required ? true : undefined,
    },
  };
}
