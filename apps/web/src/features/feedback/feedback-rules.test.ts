import { describe, expect, it } from 'vitest';
import {
  defaultFeedbackSettings,
  emptyFeedback,
  feedbackReport,
  formatFileSize,
  missingFields,
  prefilledFeedback,
  SCREENSHOT_MAX_BYTES,
  screenshotProblem,
} from './feedback-rules';

const required = { ...defaultFeedbackSettings, isNameRequired: true, isEmailRequired: true };

describe('feedback rules (docs/product/account-rules.md#validation-rules)', () => {
  it('always requires the message; name and e-mail only when configured, and never when hidden', () => {
    const nothing = { name: '', email: '', message: '' };
    expect(missingFields(nothing, defaultFeedbackSettings)).toEqual(['message']);
    expect(missingFields(nothing, required)).toEqual(['name', 'email', 'message']);
    expect(missingFields(nothing, { ...required, showName: false, showEmail: false })).toEqual(['message']);
  });

  it('counts a name of spaces as missing, but leaves a message of spaces to the empty-message refusal', () => {
    const spaces = { name: '  ', email: ' a@b ', message: '   ' };
    expect(missingFields(spaces, required)).toEqual(['name']);
    expect(feedbackReport(spaces, required)).toEqual({ email: 'a@b', message: '' });
  });

  it('trims every value, checks no e-mail format, and sends no hidden field', () => {
    const values = { name: ' Erika ', email: ' not-an-address ', message: '\n Broken \t' };
    expect(feedbackReport(values, defaultFeedbackSettings)).toEqual({
      name: 'Erika',
      email: 'not-an-address',
      message: 'Broken',
    });
    expect(feedbackReport(values, { ...defaultFeedbackSettings, showName: false, showEmail: false })).toEqual(
      {
        message: 'Broken',
      },
    );
  });

  it('fills in the signed-in customer’s name and e-mail where the form asks for them', () => {
    const user = { uuid: 'u-1', firstName: 'Dora', lastName: 'Demo', email: 'dora@example.com' };
    expect(prefilledFeedback(user, defaultFeedbackSettings)).toEqual({
      name: 'Dora Demo',
      email: 'dora@example.com',
      message: '',
    });
    expect(prefilledFeedback(user, { ...defaultFeedbackSettings, showName: false })).toEqual({
      ...emptyFeedback,
      email: 'dora@example.com',
    });
    expect(prefilledFeedback({ ...user, uuid: '' }, defaultFeedbackSettings)).toEqual(emptyFeedback);
    expect(prefilledFeedback(null, defaultFeedbackSettings)).toEqual(emptyFeedback);
  });
});

describe('screenshot rules', () => {
  it('takes a PNG, JPEG or WebP picture of up to 150 kB', () => {
    expect(SCREENSHOT_MAX_BYTES).toBe(150_000);
    expect(screenshotProblem({ type: 'image/png', size: 150_000 })).toBeNull();
    expect(screenshotProblem({ type: 'image/webp', size: 1 })).toBeNull();
    expect(screenshotProblem({ type: 'image/jpeg', size: 150_001 })).toBe('size');
    expect(screenshotProblem({ type: 'image/heic', size: 1 })).toBe('type');
    expect(screenshotProblem({ type: '', size: 1 })).toBe('type');
  });

  it('writes sizes as the customer’s language does, never rounding a size below the limit', () => {
    // Intl puts a (narrow) no-break space between number and unit.
    const size = (bytes: number, language: string) => formatFileSize(bytes, language).replace(/\s/g, ' ');
    expect(size(150_000, 'en')).toBe('150 kB');
    expect(size(150_000, 'fr')).toBe('150 ko');
    expect(size(150_001, 'en')).toBe('151 kB');
    expect(size(69, 'de')).toBe('69 Byte');
    expect(size(2_400_000, 'de')).toBe('2,4 MB');
  });
});
