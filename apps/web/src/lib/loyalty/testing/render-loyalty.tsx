import type { QueryClient } from '@tanstack/react-query';
import type { ReactElement } from 'react';
import { Route } from 'wouter';
import { routes } from '@/config/routes';
import type { HttpClient } from '@/lib/http';
import { renderWithProviders } from '@/testing/render';

/**
 * For tests: renders a loyalty screen inside the loyalty base, as the app's nested router does, at a
 * path relative to that base (e.g. '/status?tracking_opt_out=true'). The returned address history
 * holds absolute paths.
 */
export function renderLoyalty(
  ui: ReactElement,
  options: { path?: string; http?: HttpClient; queryClient?: QueryClient } = {},
) {
  return renderWithProviders(
    <Route path={routes.loyalty.base} nest>
      {ui}
    </Route>,
    {
      path: `${routes.loyalty.base}${options.path ?? '/'}`,
      ...(options.http ? { http: options.http } : {}),
      ...(options.queryClient ? { queryClient: options.queryClient } : {}),
    },
  );
}

/** A fake `get` answering per path (without query): a value, or an Error to reject with. */
export function getByPath(answers: Record<string, unknown>) {
  return async (url: string) => {
    if (!(url in answers)) throw new Error(`Unexpected GET ${url}`);
    const answer = answers[url];
    if (answer instanceof Error) throw answer;
    return answer as never;
  };
}
