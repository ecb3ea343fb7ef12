import { useCallback, type ComponentProps } from 'react';
import { Link, Redirect, useLocation, useSearch } from 'wouter';
import { withCarriedQuery } from '@/config/routes';

type LinkProps = Omit<ComponentProps<typeof Link>, 'to' | 'href'> & { to: string };

/** A link inside the loyalty app that carries tracking_opt_out over (docs/product/addresses-and-routes.md#screens-and-routes). */
export function LoyaltyLink({ to, ...props }: LinkProps) {
  const search = useSearch();
  return <Link {...(props as object)} to={withCarriedQuery(to, search)} />;
}

/** A redirect inside the loyalty app: replaces the history entry and carries tracking_opt_out over. */
export function LoyaltyRedirect({ to }: { to: string }) {
  const search = useSearch();
  return <Redirect to={withCarriedQuery(to, search)} replace />;
}

/** Navigation inside the loyalty app that carries tracking_opt_out over. */
export function useLoyaltyNavigate() {
  const [, navigate] = useLocation();
  const search = useSearch();
  return useCallback(
    (to: string, options?: { replace?: boolean }) => navigate(withCarriedQuery(to, search), options),
    [navigate, search],
  );
}
