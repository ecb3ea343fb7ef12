import type { ButtonHTMLAttributes } from 'react';

/**
 * A form's submit button. While the form is busy it says so (aria-disabled) and takes no press, but
 * stays focusable: a disabled button would drop the keyboard focus to the page in the middle of a save.
 * The form's submit handler must ignore a submit while busy (Enter in a field still submits).
 */
export function SubmitButton({
  busy,
  onClick,
  ...props
}: ButtonHTMLAttributes<HTMLButtonElement> & { busy: boolean }) {
  return (
    <button
      type="submit"
      {...props}
      aria-disabled={busy || undefined}
      onClick={(event) => {
        if (busy) event.preventDefault();
        else onClick?.(event);
      }}
    />
  );
}
