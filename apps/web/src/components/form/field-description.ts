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
  { hint, error, required }: { hint?: unknown; error?: string | undefined; required?: boolean | undefined },
): FieldDescription {
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const describedBy = [hintId, errorId].filter(Boolean).join(' ');
  return {
    hintId,
    errorId,
    controlProps: {
      id,
      'aria-invalid': error ? true : undefined,
      'aria-describedby': describedBy || undefined,
      'aria-required': required ? true : undefined,
    },
  };
}
