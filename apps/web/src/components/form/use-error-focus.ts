import { useCallback, useEffect, useRef, useState } from 'react';

/** The attribute that marks a form's error summary (FormErrors) as the place for the focus. */
export const errorSummaryAttribute = 'data-error-summary';

/** What takes the focus after a rejection: a control marked invalid, else the form's error summary. */
const errorTarget = `[aria-invalid="true"]:not([type="hidden"]), [${errorSummaryAttribute}]`;

/** Focuses the first rejected control in DOM order within `container`, or else its error summary. */
export function focusFirstError(container: HTMLElement | null): boolean {
  const target = container?.querySelector<HTMLElement>(errorTarget);
  if (!target) return false;
  target.focus();
  return true;
}

/**
 * The focus after a rejection, the same in every form: the first invalid field in DOM order (not in
 * the order the rules or the server listed them), or the error summary when no field is marked.
 * `focusErrors()` may be called before the errors show (react-hook-form calls handleSubmit's invalid
 * callback before it hands the errors to the form's state): the focus moves at the first render that
 * shows one, looking for a few renders only, so that it never jumps later while the customer types.
 * Pair it with react-hook-form's `shouldFocusError: false`, which would focus in registration order.
 */
export function useErrorFocus<Container extends HTMLElement = HTMLFormElement>() {
  const containerRef = useRef<Container>(null);
  const rendersLeft = useRef(0);
  const [, setRequest] = useState(0);
  useEffect(() => {
    if (rendersLeft.current === 0) return;
    rendersLeft.current = focusFirstError(containerRef.current) ? 0 : rendersLeft.current - 1;
  });
  const focusErrors = useCallback(() => {
    rendersLeft.current = 3;
    setRequest((count) => count + 1);
  }, []);
  return { containerRef, focusErrors };
}
