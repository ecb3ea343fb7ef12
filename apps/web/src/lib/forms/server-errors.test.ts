import { describe, expect, it, vi } from 'vitest';
import { apiErrorCodes, type Violation } from '@roadpass/contracts';
import { HttpError } from '@/lib/http';
import { addMessage, collectMessages, setServerErrors } from './server-errors';

const describeViolation = (violation: Violation) => `${violation.field} breaks ${violation.rule}`;

function validationError(violations: Violation[]): HttpError {
  return new HttpError({
    status: 400,
    config: { method: 'PUT', url: '/api/x' },
    body: { status: 400, code: apiErrorCodes.validationFailed, message: 'Invalid', violations },
  });
}

describe('validation messages per attribute', () => {
  it('adds a message once per attribute and keeps other attributes', () => {
    let messages = addMessage({}, 'zip', 'Too short');
    messages = addMessage(messages, 'zip', 'Too short');
    messages = addMessage(messages, 'zip', 'Digits only');
    messages = addMessage(messages, 'city', 'Too short');
    expect(messages).toEqual({ zip: ['Too short', 'Digits only'], city: ['Too short'] });
  });

  it('returns the same object when nothing changes', () => {
    const messages = { zip: ['Too short'] };
    expect(addMessage(messages, 'zip', 'Too short')).toBe(messages);
  });

  it('collects violations, each described message once', () => {
    const messages = collectMessages(
      [
        { field: 'zip', rule: 'pattern', message: 'a' },
        { field: 'zip', rule: 'pattern', message: 'b' },
        { field: 'zip', rule: 'required', message: 'c' },
      ],
      describeViolation,
    );
    expect(messages).toEqual({ zip: ['zip breaks pattern', 'zip breaks required'] });
  });
});

describe('setServerErrors', () => {
  it('puts each field its messages and returns the rest as form messages', () => {
    const setError = vi.fn();
    const result = setServerErrors(
      validationError([
        { field: 'zip', rule: 'pattern', message: 'x' },
        { field: 'zip', rule: 'pattern', message: 'y' },
        { field: 'city', rule: 'required', message: 'z' },
        { field: 'legalEntityId', rule: 'match', message: 'w' },
      ]),
      setError,
      { fields: ['zip', 'city'], describe: describeViolation },
    );

    expect(result).toEqual({ handled: true, formMessages: ['legalEntityId breaks match'] });
    expect(setError).toHaveBeenCalledTimes(2);
    expect(setError).toHaveBeenNthCalledWith(1, 'zip', { type: 'server', message: 'zip breaks pattern' });
    expect(setError).toHaveBeenNthCalledWith(2, 'city', { type: 'server', message: 'city breaks required' });
  });

  it('maps a server field name onto a form field', () => {
    const setError = vi.fn();
    setServerErrors(validationError([{ field: 'granted', rule: 'required', message: 'x' }]), setError, {
      fields: ['consent'],
      describe: describeViolation,
      fieldOf: (violation) => (violation.field === 'granted' ? 'consent' : violation.field),
    });
    expect(setError).toHaveBeenCalledWith('consent', { type: 'server', message: 'granted breaks required' });
  });

  it('leaves any other error to the caller', () => {
    const setError = vi.fn();
    const serverError = new HttpError({
      status: 503,
      config: { url: '/api/x' },
      body: { status: 503, code: apiErrorCodes.internal, message: 'Down' },
    });
    expect(setServerErrors(serverError, setError, { fields: [], describe: describeViolation })).toEqual({
      handled: false,
      formMessages: [],
    });
    expect(
      setServerErrors(new Error('boom'), setError, { fields: [], describe: describeViolation }).handled,
    ).toBe(false);
    expect(setError).not.toHaveBeenCalled();
  });
});
