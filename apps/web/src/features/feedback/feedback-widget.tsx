import { useEffect, useRef, useState } from 'react';
import { useTranslation } from '@/lib/i18n/use-translation';
import { FeedbackDialog } from './feedback-dialog';
import { defaultFeedbackSettings, FEEDBACK_SUCCESS_MS, type FeedbackSettings } from './feedback-rules';
import './feedback.css';

/**
 * The feedback widget of docs/product/states.md#states-and-transitions: closed (the "Report a Bug" button), open (a modal form), submitting,
 * and the thank-you message that disappears after 5 seconds or on click.
 */
export default function FeedbackWidget({ settings }: { settings?: FeedbackSettings | undefined }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  // Each success gets its own number, so a second report restarts the thank-you's 5 seconds.
  const [thanks, setThanks] = useState(0);
  const launcher = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (!thanks) return;
    const timer = window.setTimeout(() => setThanks(0), FEEDBACK_SUCCESS_MS);
    return () => window.clearTimeout(timer);
  }, [thanks]);

  const close = () => {
    setOpen(false);
    launcher.current?.focus();
  };

  return (
    <>
      <button
        ref={launcher}
        type="button"
        className="shell__footer-link"
        aria-haspopup="dialog"
        onClick={() => {
          setThanks(0);
          setOpen(true);
        }}
      >
        {t('feedback-report-bug', 'Report a Bug')}
      </button>
      <FeedbackDialog
        open={open}
        settings={settings ?? defaultFeedbackSettings}
        onClose={close}
        onSent={() => {
          close();
          setThanks((n) => n + 1);
        }}
      />
      <div className="feedback-thanks-region" role="status">
        {thanks > 0 && (
          <button type="button" className="feedback-thanks" onClick={() => setThanks(0)}>
            {t('feedback-success', 'Thank you for your report!')}
          </button>
        )}
      </div>
    </>
  );
}
