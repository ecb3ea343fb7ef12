import { useEffect, useSyncExternalStore } from 'react';
import type { CompiledRules, CustomValidator } from '@roadpass/contracts';

export type CustomValidators = Readonly<Record<string, CustomValidator>>;

// One loader for every form that checks served rules (profile, password, mobile): the validators of
// our own come in a chunk of their own, once, right after a form shows (and again after a failed load).
let loading: Promise<CustomValidators> | undefined;
let loaded: CustomValidators | undefined;
const listeners = new Set<() => void>();

/** The custom validators: at once when they are here, else once their chunk has come. */
export function loadCustomValidators(): Promise<CustomValidators> {
  loading ??= import('./custom-validators').then(
    (module) => {
      loaded = module.customValidators;
      for (const listener of listeners) listener();
      return module.customValidators;
    },
    (error: unknown) => {
      loading = undefined;
      throw error;
    },
  );
  return loading;
}

/** Whether any rule is a validator of our own (else checking needs no chunk). */
export function namesCustomValidators(rules: CompiledRules): boolean {
  return Object.values(rules).some((field) => !field.invisible && field.custom.length > 0);
}

/**
 * The validators to check `rules` with before sending: waits for the chunk when it has not come yet.
 * `undefined` when it cannot be loaded: then the caller checks what needs no chunk and sends, and the
 * server, which runs the very same validators, answers a broken rule with its 400 (never sent as
 * "checked" without the check).
 */
export async function customValidatorsFor(rules: CompiledRules): Promise<CustomValidators | undefined> {
  if (!namesCustomValidators(rules)) return {};
  return loadCustomValidators().catch(() => undefined);
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
};
const current = () => loaded;

/**
 * The custom validators for checks while typing: `undefined` until their chunk has come, which starts
 * loading after the first render (when `needed`). A form must not show a custom rule as met before.
 */
export function useCustomValidators(needed = true): CustomValidators | undefined {
  const validators = useSyncExternalStore(subscribe, current, current);
  useEffect(() => {
    if (needed) loadCustomValidators().catch(() => undefined);
  }, [needed]);
  return validators;
}
