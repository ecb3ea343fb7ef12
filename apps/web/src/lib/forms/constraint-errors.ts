import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { constraintViolationsOf } from './constraint-violations';
import { addMessage, placeMessages, type MessagesByField } from './server-errors';

/**
 * setServerErrors for the password and mobile calls, whose 400 (and 429 "too soon") names attributes in
 * constraintViolationMetaInfo with the server's text in the customer's language (docs/product/errors.md#error-catalogue).
 */
export function setConstraintViolations<Values extends FieldValues>(
  error: unknown,
  setError: UseFormSetError<Values>,
  { fields }: { fields: readonly Path<Values>[] },
): { handled: boolean; formMessages: string[] } {
  const violations = constraintViolationsOf(error);
  if (violations.length === 0) return { handled: false, formMessages: [] };
  const messages = violations.reduce<MessagesByField>(
    (collected, violation) => addMessage(collected, violation.attribute, violation.text),
    {},
  );
  return { handled: true, formMessages: placeMessages(messages, setError, fields) };
}
