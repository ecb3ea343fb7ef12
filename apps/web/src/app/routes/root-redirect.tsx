import { Redirect, useSearch } from 'wouter';
import { routes, withCarriedQuery } from '@/config/routes';
import { resolveCountryLanguage } from '@/lib/i18n/locale';
import { useAppStore } from '@/lib/state/app-store';
import { readCountryLanguage } from '@/lib/storage/storage';
import { useSessionUser } from '@/lib/session/session-user';

/** `/`: the signed-in customer's account home, in their country and language (docs/product/addresses-and-routes.md#screens-and-routes). */
export function RootRedirect() {
  const search = useSearch();
  const user = useSessionUser();
  const isWebView = useAppStore((state) => state.isWebView);
  const home = resolveCountryLanguage({
    user,
    pathname: routes.root.build(),
    requestedLocale: new URLSearchParams(search).get('locale'),
    preference: readCountryLanguage(),
    isWebView,
  });
  return (
    <Redirect to={withCarriedQuery(routes.accountHome.build(home.country, home.language), search)} replace />
  );
}
