import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { apiErrorCodes, type Violation } from '@roadpass/contracts';
import { hasErrorCode } from '@/lib/http';

/** Messages per attribute, each message once (docs/product/states.md#states-and-transitions: validation errors without duplicates). */
export type MessagesByField = Record<string, string[]>;

/** Adds one message to an attribute unless it is there already; returns the same object when unchanged. */
export function addMessage(messages: MessagesByField, field: string, message: string): MessagesByField {
  const known = messages[field] ?? [];
  if (known.includes(message)) return messages;
  return { ...messages, [field]: [...known, message] };
}

/** Collects violations into messages per attribute, without duplicates. */
export function collectMessages(
  violations: readonly Violation[],
  describe: (violation: Violation) => string,
  fieldOf: (violation: Violation) => string = (violation) => violation.field,
): MessagesByField {
  return violations.reduce<MessagesByField>(
    (messages, violation) => addMessage(messages, fieldOf(violation), describe(violation)),
    {},
  );
}

/** The violations of a 400 validation error; empty for any other error. */
export function violationsOf(error: unknown): Violation[] {
  return hasErrorCode(error, apiErrorCodes.validationFailed) ? (error.body?.violations ?? []) : [];
}

export interface ServerErrorMapping<Values extends FieldValues> {
  /** The form's fields; a violation of any other field becomes a form-level message. */
  fields: readonly Path<Values>[];
  /** The message a customer reads for a violation, in their language. */
  describe: (violation: Violation) => string;
  /** Which form field a violation belongs to, when the server names it differently. */
  fieldOf?: (violation: Violation) => string;
}

/**
 * Puts a server's 400 violations onto the form's fields (like Keycloak's setUserProfileServerError):
 * one error per field with its messages, each once. The focus is the form's: call useErrorFocus's
 * focusErrors() after this, which takes the first rejected field in DOM order (the server's order is
 * not the page's), or the error summary when only form-level messages came back. Returns the messages that
 * belong to no field (show them with FormErrors), and whether the error was a validation error at all
 * (anything else is the caller's to handle: a banner, a toast).
 */
export function setServerErrors<Values extends FieldValues>(
  error: unknown,
  setError: UseFormSetError<Values>,
  { fields, describe, fieldOf }: ServerErrorMapping<Values>,
): { handled: boolean; formMessages: string[] } {
  if (!hasErrorCode(error, apiErrorCodes.validationFailed)) return { handled: false, formMessages: [] };
  const messages = collectMessages(violationsOf(error), describe, fieldOf);
  return { handled: true, formMessages: placeMessages(messages, setError, fields) };
}

/** Sets each known field's messages as its error; returns the others' messages, each once. */
export function placeMessages<Values extends FieldValues>(
  messages: MessagesByField,
  setError: UseFormSetError<Values>,
  fields: readonly Path<Values>[],
): string[] {
  const known = new Set<string>(fields);
  const formMessages: string[] = [];
  for (const [field, fieldMessages] of Object.entries(messages)) {
    if (!known.has(field)) {
      for (const message of fieldMessages) if (!formMessages.includes(message)) formMessages.push(message);
      continue;
    }
    setError(field as Path<Values>, { type: 'server', message: fieldMessages.join(' ') });
  }
  return formMessages;
}
