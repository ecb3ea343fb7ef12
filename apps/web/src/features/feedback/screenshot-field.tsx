import { useEffect, useRef, useState } from 'react';
import { describeField } from '@/components/form';
import { useTranslation } from '@/lib/i18n/use-translation';
import { useAppStore } from '@/lib/state/app-store';
import {
  SCREENSHOT_TYPES,
  formatFileSize,
  screenshotProblem,
  type ScreenshotProblem,
} from './feedback-rules';
import { fittingScreenshot } from './shrink-screenshot';

/** The file the customer chose, and why it cannot be sent (null when it can). */
export interface Screenshot {
  file: File;
  problem: ScreenshotProblem | null;
}

export const chosenScreenshot = (file: File): Screenshot => ({ file, problem: screenshotProblem(file) });

interface Props {
  id: string;
  screenshot: Screenshot | null;
  /** A new choice (null: removed, or the picker came back empty). */
  onChange: (next: Screenshot | null) => void;
  /** The form's problem is about the screenshot: the control is marked and described by it. */
  invalid: boolean;
  problemId: string;
  disabled: boolean;
}

/** A data: address of the picture for the preview (the CSP allows data: images, not blob:). */
function usePreview(file: File | null): string | null {
  const [preview, setPreview] = useState<{ file: File; url: string } | null>(null);
  useEffect(() => {
    if (!file) return;
    const reader = new FileReader();
    reader.onload = () => {
      if (typeof reader.result === 'string') setPreview({ file, url: reader.result });
    };
    reader.readAsDataURL(file);
    return () => reader.abort();
  }, [file]);
  return file && preview?.file === file ? preview.url : null;
}

/**
 * "Add a screenshot": one picture the customer picks from their photos or files (no screen capture:
 * it needs a permission prompt in browsers and does not exist in the native webviews). The native file
 * input stays the control (keyboard, screen readers, the phone's photo picker), visually replaced by
 * its label styled as a button, so the text is ours and translated. The chosen file shows with a
 * preview, its name and size, and a button to remove it. A picture too large for the report is drawn
 * smaller first (shrink-screenshot.ts); only one that still does not fit is refused.
 */
export function ScreenshotField({ id, screenshot, onChange, invalid, problemId, disabled }: Props) {
  const { t } = useTranslation();
  const language = useAppStore((s) => s.activeLanguage);
  const preview = usePreview(screenshot && !screenshot.problem ? screenshot.file : null);
  const { hintId, controlProps } = describeField(id, {
    hint: true,
    errorSummaryId: invalid ? problemId : undefined,
  });
  const [shrinking, setShrinking] = useState(false);
  const element = useRef<HTMLInputElement | null>(null);

  // The input shows what the form holds: nothing once removed or sent.
  useEffect(() => {
    if (!screenshot && element.current) element.current.value = '';
  }, [screenshot]);

  return (
    <div className={invalid ? 'field feedback-screenshot field--invalid' : 'field feedback-screenshot'}>
      <input
        ref={element}
        {...controlProps}
        name="screenshot"
        type="file"
        accept={SCREENSHOT_TYPES.join(',')}
        className="visually-hidden feedback-screenshot__input"
        disabled={disabled || shrinking}
        onChange={(event) => {
          const file = event.target.files?.[0];
          const chosen = file ? chosenScreenshot(file) : null;
          if (!file || chosen?.problem !== 'size') return onChange(chosen);
          setShrinking(true);
          void fittingScreenshot(file)
            .then((smaller) => onChange(smaller ? chosenScreenshot(smaller) : chosen))
            .finally(() => setShrinking(false));
        }}
      />
      <label htmlFor={id} className="button button--secondary feedback-screenshot__choose">
        {t('feedback-screenshot-label', 'Add a screenshot')}
      </label>
      <p id={hintId} className="field__hint">
        {t(
          'feedback-screenshot-hint',
          'Optional: a PNG, JPEG or WebP picture. A large one is made smaller to fit.',
        )}
      </p>
      <div aria-live="polite">
        {shrinking && (
          <p className="field__hint">
            {t('feedback-screenshot-shrinking', 'Making the screenshot smaller…')}
          </p>
        )}
        {screenshot && !shrinking && (
          <div className="feedback-screenshot__chosen">
            {preview && <img className="feedback-screenshot__preview" src={preview} alt="" />}
            <span className="feedback-screenshot__name">
              {screenshot.file.name} ({formatFileSize(screenshot.file.size, language)})
            </span>
            <button
              type="button"
              className="button button--secondary"
              disabled={disabled}
              onClick={() => {
                onChange(null);
                // The button goes: the focus goes back to the control, to choose another.
                element.current?.focus();
              }}
            >
              {t('feedback-screenshot-remove', 'Remove screenshot')}
            </button>
          </div>
        )}
      </div>
    </div>
  );
}
