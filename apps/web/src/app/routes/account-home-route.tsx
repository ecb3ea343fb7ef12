import { Redirect, useLocation, useParams, useSearch } from 'wouter';
import { routes, withCarriedQuery } from '@/config/routes';
import { AccountHome } from '@/features/account-home/components/account-home';
import { SignOutButton } from '@/features/auth/components/sign-out-button';
import { resolveCountryLanguage } from '@/lib/i18n/locale';
import { useAppStore } from '@/lib/state/app-store';
import { readCountryLanguage } from '@/lib/storage/storage';
import { useServices } from '../services';
import { useSessionUser } from '@/lib/session/session-user';

/**
 * /{COUNTRY}/{lang}/myaccount. An address whose country or language does not fit the customer is
 * replaced by the one that does (the same rule as `/`, so the two never bounce).
 */
export default function AccountHomeRoute() {
  const params = useParams<{ country: string; lang: string }>();
  const [location] = useLocation();
  const search = useSearch();
  const user = useSessionUser();
  const isWebView = useAppStore((state) => state.isWebView);
  const { auth } = useServices();

  if (!user) return <Redirect to={routes.root.build()} replace />;

  const home = resolveCountryLanguage({
    user,
    pathname: location,
    requestedLocale: new URLSearchParams(search).get('locale'),
    preference: readCountryLanguage(),
    isWebView,
  });
  if (home.country !== params.country || home.language !== params.lang) {
    return (
      <Redirect
        to={withCarriedQuery(routes.accountHome.build(home.country, home.language), search)}
        replace
      />
    );
  }

  return (
    <AccountHome
      user={user}
      country={home.country}
      language={home.language}
      loyaltyHref={routes.loyalty.entry.href()}
      // In the native apps the top bar is not shown: the page keeps its own sign-out there.
      actions={auth && isWebView ? <SignOutButton onSignOut={() => auth.signOut()} /> : null}
    />
  );
}
