import { useEffect, useId, useRef, type ReactNode } from 'react';
import './dialog.css';

interface ConfirmDialogProps {
  open: boolean;
  title: string;
  /** The button that goes ahead (drawn as the danger of the two). */
  confirmLabel: string;
  /** The button that keeps things as they are; it takes the first focus. */
  cancelLabel: string;
  onConfirm: () => void;
  /** Cancel, Escape, or the dialog closed any other way. */
  onCancel: () => void;
  children: ReactNode;
}

/**
 * A question before something the customer may regret, on the native modal <dialog> (focus kept inside,
 * the page inert, Escape cancels). The focus starts on the safe answer, so Enter never confirms by
 * accident; where it goes afterwards is the caller's choice.
 */
export function ConfirmDialog({
  open,
  title,
  confirmLabel,
  cancelLabel,
  onConfirm,
  onCancel,
  children,
}: ConfirmDialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const bodyId = useId();
  const confirmed = useRef(false);

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      confirmed.current = false;
      dialog.showModal();
    }
    if (!open && dialog.open) dialog.close();
  }, [open]);

  return (
    <dialog
      ref={ref}
      className="dialog"
      aria-labelledby={titleId}
      aria-describedby={bodyId}
      onClose={() => {
        if (!confirmed.current && open) onCancel();
      }}
    >
      <h2 id={titleId} className="dialog__title">
        {title}
      </h2>
      <div id={bodyId} className="dialog__body">
        {children}
      </div>
      <div className="dialog__actions dialog__actions--two">
        <button type="button" className="button button--secondary" autoFocus onClick={onCancel}>
          {cancelLabel}
        </button>
        <button
          type="button"
          className="button button--danger"
          onClick={() => {
            confirmed.current = true;
            onConfirm();
          }}
        >
          {confirmLabel}
        </button>
      </div>
    </dialog>
  );
}
