import { useCallback, useEffect, useRef } from 'react';
import type { FieldValues, Path, PathValue, UseFormReturn } from 'react-hook-form';
import { securityErrorCodes } from '@roadpass/contracts';
import { isHttpError } from '@/lib/http';
import { useRuntimeServices } from '@/lib/runtime-services';
import { readItem, storageKeys, writeItem } from '@/lib/storage/storage';

/** Fields never kept across the sign-in: anything named like a password (and a form's own list). */
const SECRET_FIELD = /password|pin/i;
const isKept = (name: string, excluded: readonly string[]) =>
  !SECRET_FIELD.test(name) && !excluded.includes(name);

/** Whether a call was refused because the change needs a recent sign-in (403 recent_sign_in_required). */
export function needsRecentSignIn(error: unknown): boolean {
  return isHttpError(error) && error.body?.code === securityErrorCodes.recentSignInRequired;
}

export interface StepUpOptions {
  /** More fields to keep out of storage (fields named like a password or PIN never go in). */
  exclude?: readonly string[];
}

/**
 * Step-up before sensitive changes (docs/product/security.md#step-up), the same for every form.
 *
 * ```tsx
 * const handleStepUp = useStepUp('password', form);
 * …
 * } catch (error) {
 *   if (handleStepUp(error)) return; // the browser is on its way to the sign-in
 *   …the form's own error handling
 * }
 * ```
 *
 * When the server answers 403 `recent_sign_in_required`, the hook keeps what the customer typed in
 * sessionStorage (under the form's id; never a field named like a password or a PIN, nor those in
 * `exclude`), and sends the customer through the sign-in with `max_age=0` (oidc-client-ts
 * signinRedirect, back to the same address). When the form mounts again after the sign-in, the hook
 * puts the kept values back into it (setValue, marked dirty) and forgets them. Any other error:
 * returns false and the form handles it. In a webview (the host app owns the sign-in) there is no
 * way to sign in again from here: it returns false too, and the form says the save failed.
 *
 * `formId` names the form in storage: one id per form, stable across page loads.
 */
export function useStepUp<Values extends FieldValues>(
  formId: string,
  form: Pick<UseFormReturn<Values>, 'getValues' | 'setValue'>,
  options: StepUpOptions = {},
): (error: unknown) => boolean {
  const services = useRuntimeServices();
  const key = `${storageKeys.stepUpDraft}${formId}`;
  const { getValues, setValue } = form;
  // One string, so that a list written inline by the caller does not change the callback each render.
  const excluded = (options.exclude ?? []).join('\n');

  // Back from the sign-in: the input of before, once.
  const restored = useRef(false);
  useEffect(() => {
    if (restored.current) return;
    restored.current = true;
    const stored = readItem(sessionStorage, key);
    if (stored === null) return;
    writeItem(sessionStorage, key, null);
    let values: unknown;
    try {
      values = JSON.parse(stored);
    } catch {
      return;
    }
    if (typeof values !== 'object' || values === null) return;
    for (const [name, value] of Object.entries(values)) {
      if (!isKept(name, excluded.split('\n'))) continue;
      setValue(name as Path<Values>, value as PathValue<Values, Path<Values>>, { shouldDirty: true });
    }
    // Runs once per mount; the key and the form are the mount's.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  return useCallback(
    (error: unknown) => {
      const signInAgain = services?.signInAgain;
      if (!needsRecentSignIn(error) || !signInAgain) return false;
      const values = Object.fromEntries(
        Object.entries(getValues() as Record<string, unknown>).filter(([name]) =>
          isKept(name, excluded.split('\n')),
        ),
      );
      writeItem(sessionStorage, key, JSON.stringify(values));
      void signInAgain();
      return true;
    },
    [services, key, getValues, excluded],
  );
}

/**
 * Step-up for a change made with a button, nothing typed (add or remove a passkey, download the data,
 * close the account; docs/product/security.md#step-up): on 403 `recent_sign_in_required` it sends the
 * customer through the sign-in (`max_age=0`) and back to the same page, where the button is pressed
 * again (a passkey's browser dialog needs the customer's own press). Answers false for any other error
 * and in a webview (the host app owns the sign-in), where the caller shows its "sign in again" text.
 */
export function useStepUpAction(): (error: unknown) => boolean {
  const services = useRuntimeServices();
  return useCallback(
    (error: unknown) => {
      const signInAgain = services?.signInAgain;
      if (!needsRecentSignIn(error) || !signInAgain) return false;
      void signInAgain();
      return true;
    },
    [services],
  );
}
