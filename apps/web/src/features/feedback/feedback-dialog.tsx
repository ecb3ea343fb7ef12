import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from '@/lib/i18n/use-translation';
import { Field, FormErrors, useErrorFocus } from '@/components/form';
import { TextAreaField } from '@/components/form/text-area-field';
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

type Part = FeedbackField | 'screenshot';

/**
 * A problem of the whole form (docs/product/account-rules.md#validation-rules, docs/product/errors.md#error-catalogue texts) and the parts it is about; `kind` says what fixes
 * it, so that it goes as soon as the customer has fixed it.
 */
interface Problem {
  kind: 'missing' | 'empty' | 'screenshot' | 'send';
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
  const { containerRef, focusErrors } = useErrorFocus();
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

  const labels: Record<FeedbackField, string> = {
    name: t('feedback-name-label', 'Name'),
    email: t('feedback-email-label', 'Email'),
    message: t('feedback-message-label', 'Description'),
  };

  /** Says the problem; the focus goes to the first part it marks, or to the message itself. */
  const fail = (next: Problem, focus = true) => {
    setProblem(next);
    if (focus) focusErrors();
  };

  const missingProblem = (missing: FeedbackField[]): Problem => ({
    kind: 'missing',
    text: t('feedback-missing-fields', {
      defaultValue: 'Please enter in the following required fields: {{labels}}',
      labels: missing.map((field) => labels[field]).join(', '),
    }),
    fields: missing,
  });

  /** What is still wrong once the customer changed a field: a fixed field is no longer marked. */
  const revised = (current: Problem | null, next: FeedbackValues): Problem | null => {
    if (current?.kind === 'missing') {
      const missing = missingFields(next, settings);
      return missing.length > 0 ? missingProblem(missing) : null;
    }
    if (current?.kind === 'empty' && feedbackReport(next, settings).message) return null;
    return current;
  };

  const edit = (field: FeedbackField, value: string) => {
    const next = { ...edited, [field]: value };
    setEdited(next);
    setProblem((current) => revised(current, { ...prefilledFeedback(user, settings), ...next }));
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
    if (next?.problem)
      fail({ kind: 'screenshot', text: screenshotText(next), fields: ['screenshot'] }, false);
    else if (problem?.kind === 'screenshot') setProblem(null);
  };

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (submitting) return;
    const missing = missingFields(values, settings);
    if (missing.length > 0) {
      fail(missingProblem(missing));
      return;
    }
    if (screenshot?.problem) {
      fail({ kind: 'screenshot', text: screenshotText(screenshot), fields: ['screenshot'] });
      return;
    }
    const report = feedbackReport(values, settings);
    if (!report.message) {
      fail({
        kind: 'empty',
        text: t('feedback-empty-message', 'Unable to submit feedback with empty message'),
        fields: ['message'],
      });
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
      fail({
        kind: 'screenshot',
        text: t(
          'feedback-screenshot-unreadable',
          'The screenshot could not be read. Please choose it again.',
        ),
        fields: ['screenshot'],
      });
      return;
    }
    try {
      await sendFeedback(attachment ? { ...report, attachment } : report);
    } catch {
      setSubmitting(false);
      fail(
        {
          kind: 'send',
          text: t(
            'feedback-send-failed',
            'There was a problem submitting feedback, please wait and try again.',
          ),
          fields: [],
        },
        // The send button kept the focus (never disabled): trying again is one press away.
        false,
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
      <form
        ref={containerRef}
        className="feedback-dialog__form"
        noValidate
        aria-busy={submitting}
        onSubmit={submit}
      >
        {/* Only the fields scroll: title and buttons stay in sight at any height. */}
        <div className="feedback-dialog__body">
          {fields.map(({ field, required }) => {
            const frame = {
              id: `${id}-${field}`,
              label: labels[field],
              required,
              requiredLabel,
              errorSummaryId: problem?.fields.includes(field) ? problemId : undefined,
            };
            const control = {
              name: field,
              value: values[field],
              onChange: (event: { target: { value: string } }) => edit(field, event.target.value),
            };
            return field === 'message' ? (
              <TextAreaField
                key={field}
                {...frame}
                hint={t('feedback-message-hint', "What's the bug? What did you expect?")}
                textAreaProps={{ ...control, rows: 4 }}
              />
            ) : (
              <Field
                key={field}
                {...frame}
                inputProps={{
                  ...control,
                  type: field === 'email' ? 'email' : 'text',
                  autoComplete: field === 'email' ? 'email' : 'name',
                }}
              />
            );
          })}
          <ScreenshotField
            id={`${id}-screenshot`}
            screenshot={screenshot}
            onChange={chooseScreenshot}
            invalid={problem?.fields.includes('screenshot') ?? false}
            problemId={problemId}
            disabled={submitting}
          />
          <FormErrors id={problemId} messages={problem ? [problem.text] : []} />
        </div>
        <div className="feedback-dialog__actions">
          <button type="submit" className="button button--primary" aria-disabled={submitting || undefined}>
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
