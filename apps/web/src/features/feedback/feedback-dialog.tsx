import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from '@/lib/i18n/use-translation';
import { describeField } from '@/components/form';
import { sendFeedback, type FeedbackAttachment } from '@/lib/errors/feedback-sender';
import { useAppStore } from '@/lib/state/app-store';
import {
  feedbackFields,
  feedbackReport,
  formatFileSize,
  missingFields,
  prefilledFeedback,
  SCREENSHOT_MAX_BYTES,
  type FeedbackField,
  type FeedbackSettings,
  type FeedbackValues,
} from './feedback-rules';
import { ScreenshotField, type Screenshot } from './screenshot-field';
import { useSessionUser } from '@/lib/session/session-user';

interface Props {
  open: boolean;
  settings: FeedbackSettings;
  onClose: () => void;
  onSent: () => void;
}

type Control = HTMLInputElement | HTMLTextAreaElement;
type Part = FeedbackField | 'screenshot';

/** A problem of the whole form (spec §5/§8 texts) and the parts it is about. */
interface Problem {
  text: string;
  fields: Part[];
}

/** The screenshot's bytes as the SDK attaches them. */
const attachmentOf = async ({ file }: Screenshot): Promise<FeedbackAttachment> => ({
  filename: file.name,
  data: new Uint8Array(await file.arrayBuffer()),
  contentType: file.type,
});

/**
 * The "Report a Bug" form in a modal native <dialog> (focus trap, Escape, inert page). The rules are
 * the spec's: message required, name and e-mail as configured, values trimmed; one message names the
 * missing fields. A signed-in customer's name and e-mail are filled in, to keep or change; an optional
 * screenshot goes with the report. Typed text stays when the dialog is closed without sending.
 */
export function FeedbackDialog({ open, settings, onClose, onSent }: Props) {
  const { t } = useTranslation();
  const id = useId();
  const dialog = useRef<HTMLDialogElement>(null);
  const controls = useRef<Partial<Record<Part | 'submit', HTMLElement | null>>>({});
  const focusAfterRender = useRef<Part | 'submit' | null>(null);
  const user = useSessionUser();
  const language = useAppStore((s) => s.activeLanguage);
  // What the customer changed; the rest is what the app knows of them (nothing for a visitor), so a
  // name saved on the profile page meanwhile shows here too.
  const [edited, setEdited] = useState<Partial<FeedbackValues>>({});
  const values: FeedbackValues = { ...prefilledFeedback(user, settings), ...edited };
  const [screenshot, setScreenshot] = useState<Screenshot | null>(null);
  const [problem, setProblem] = useState<Problem | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const fields = feedbackFields(settings);

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (open && !element.open) {
      element.showModal();
      // Into the form: its first field.
      element.querySelector<HTMLElement>('.field__input')?.focus();
    }
    if (!open && element.open) element.close();
  }, [open]);

  // Focus moves once the DOM shows the change (a disabled button cannot take it before).
  useEffect(() => {
    const target = focusAfterRender.current;
    focusAfterRender.current = null;
    if (target) controls.current[target]?.focus();
  });

  const labels: Record<FeedbackField, string> = {
    name: t('feedback-name-label', 'Name'),
    email: t('feedback-email-label', 'Email'),
    message: t('feedback-message-label', 'Description'),
  };

  const fail = (next: Problem, focus: Part | 'submit' | null) => {
    setProblem(next);
    focusAfterRender.current = focus;
  };

  const screenshotText = (chosen: Screenshot) =>
    chosen.problem === 'size'
      ? t('feedback-screenshot-too-large', {
          defaultValue:
            'The screenshot could not be made smaller than {{size}}. Please choose another picture.',
          size: formatFileSize(SCREENSHOT_MAX_BYTES, language),
        })
      : t('feedback-screenshot-wrong-type', 'Please choose a PNG, JPEG or WebP picture.');

  const chooseScreenshot = (next: Screenshot | null) => {
    setScreenshot(next);
    // A file that cannot go is said at once (the focus stays on the control); a good one clears that.
    if (next?.problem) fail({ text: screenshotText(next), fields: ['screenshot'] }, null);
    else if (problem?.fields.includes('screenshot')) setProblem(null);
  };

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (submitting) return;
    const missing = missingFields(values, settings);
    if (missing.length > 0) {
      const list = missing.map((field) => labels[field]).join(', ');
      fail(
        {
          text: t('feedback-missing-fields', {
            defaultValue: 'Please enter in the following required fields: {{labels}}',
            labels: list,
          }),
          fields: missing,
        },
        missing[0]!,
      );
      return;
    }
    if (screenshot?.problem) {
      fail({ text: screenshotText(screenshot), fields: ['screenshot'] }, 'screenshot');
      return;
    }
    const report = feedbackReport(values, settings);
    if (!report.message) {
      fail(
        {
          text: t('feedback-empty-message', 'Unable to submit feedback with empty message'),
          fields: ['message'],
        },
        'message',
      );
      return;
    }
    setProblem(null);
    setSubmitting(true);
    let attachment: FeedbackAttachment | undefined;
    try {
      if (screenshot) attachment = await attachmentOf(screenshot);
    } catch {
      // The file went away or cannot be read (a photo library that revoked it): nothing is sent.
      setSubmitting(false);
      fail(
        {
          text: t(
            'feedback-screenshot-unreadable',
            'The screenshot could not be read. Please choose it again.',
          ),
          fields: ['screenshot'],
        },
        'screenshot',
      );
      return;
    }
    try {
      await sendFeedback(attachment ? { ...report, attachment } : report);
    } catch {
      setSubmitting(false);
      fail(
        {
          text: t(
            'feedback-send-failed',
            'There was a problem submitting feedback, please wait and try again.',
          ),
          fields: [],
        },
        'submit',
      );
      return;
    }
    setSubmitting(false);
    setEdited({});
    setScreenshot(null);
    onSent();
  };

  const problemId = `${id}-problem`;
  const requiredLabel = t('feedback-required', '(required)');

  return (
    <dialog
      ref={dialog}
      className="feedback-dialog"
      aria-labelledby={`${id}-title`}
      onCancel={(event) => {
        // Escape closes, except while a report is on its way (its answer shows in the form).
        if (submitting) event.preventDefault();
      }}
      onClose={() => {
        setProblem(null);
        onClose();
      }}
    >
      <h2 id={`${id}-title`} className="feedback-dialog__title">
        {t('feedback-report-bug', 'Report a Bug')}
      </h2>
      <form className="feedback-dialog__form" noValidate aria-busy={submitting} onSubmit={submit}>
        {fields.map(({ field, required }) => {
          const invalid = problem?.fields.includes(field) ?? false;
          const { hintId, controlProps } = describeField(`${id}-${field}`, {
            hint: field === 'message',
            required,
          });
          const props = {
            ...controlProps,
            ref: (element: Control | null) => {
              controls.current[field] = element;
            },
            name: field,
            className: 'field__input',
            value: values[field],
            required,
            'aria-invalid': invalid || undefined,
            'aria-describedby':
              [hintId, invalid ? problemId : undefined].filter(Boolean).join(' ') || undefined,
            onChange: (e: { target: { value: string } }) => setEdited({ ...edited, [field]: e.target.value }),
          };
          return (
            <div key={field} className={invalid ? 'field field--invalid' : 'field'}>
              <label htmlFor={controlProps.id} className="field__label">
                {labels[field]}
                {required && (
                  <>
                    {' '}
                    <span className="field__required">{requiredLabel}</span>
                  </>
                )}
              </label>
              {hintId && (
                <p id={hintId} className="field__hint">
                  {t('feedback-message-hint', "What's the bug? What did you expect?")}
                </p>
              )}
              {field === 'message' ? (
                <textarea {...props} rows={5} className="field__input feedback-dialog__message" />
              ) : (
                <input
                  {...props}
                  type={field === 'email' ? 'email' : 'text'}
                  autoComplete={field === 'email' ? 'email' : 'name'}
                />
              )}
            </div>
          );
        })}
        <ScreenshotField
          id={`${id}-screenshot`}
          screenshot={screenshot}
          onChange={chooseScreenshot}
          invalid={problem?.fields.includes('screenshot') ?? false}
          problemId={problemId}
          inputRef={(element) => {
            controls.current.screenshot = element;
          }}
          disabled={submitting}
        />
        <div id={problemId} className="feedback-dialog__problem" role="alert">
          {problem?.text}
        </div>
        <div className="feedback-dialog__actions">
          <button
            ref={(element) => {
              controls.current.submit = element;
            }}
            type="submit"
            className="button button--primary"
            disabled={submitting}
          >
            {submitting ? t('feedback-sending', 'Sending…') : t('feedback-submit', 'Send Bug Report')}
          </button>
          <button
            type="button"
            className="button button--secondary"
            disabled={submitting}
            onClick={() => dialog.current?.close()}
          >
            {t('feedback-cancel', 'Cancel')}
          </button>
        </div>
      </form>
    </dialog>
  );
}
