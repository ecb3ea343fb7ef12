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
 * `focusErrors()` may be called right after setting the errors: the focus moves once the DOM shows
 * them. Pair it with react-hook-form's `shouldFocusError: false`, which would focus in registration
 * order instead.
 */
export function useErrorFocus<Container extends HTMLElement = HTMLFormElement>() {
  const containerRef = useRef<Container>(null);
  const [request, setRequest] = useState(0);
  useEffect(() => {
    if (request > 0) focusFirstError(containerRef.current);
  }, [request]);
  const focusErrors = useCallback(() => setRequest((count) => count + 1), []);
  return { containerRef, focusErrors };
}
