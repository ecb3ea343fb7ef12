import { describe, expect, it } from 'vitest';
import { defaultFeedbackSettings, feedbackReport, missingFields } from './feedback-rules';

const required = { ...defaultFeedbackSettings, isNameRequired: true, isEmailRequired: true };

describe('feedback rules (spec §5)', () => {
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
});
