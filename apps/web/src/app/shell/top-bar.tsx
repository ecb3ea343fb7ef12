import { useContext } from 'react';
import { useTranslation } from '@/lib/i18n/use-translation';
import { Link, useLocation } from 'wouter';
import { isLoyaltyAddress, routes } from '@/config/routes';
import { SignOutButton } from '@/features/auth/components/sign-out-button';
import { useAppStore } from '@/lib/state/app-store';
import { ServicesContext } from '../services';
import { isSignedIn, useSessionUser } from '@/lib/session/session-user';

const carMark =
  'M5.3 10.2 6.8 6.3A2 2 0 0 1 8.7 5h6.6a2 2 0 0 1 1.9 1.3l1.5 3.9A2 2 0 0 1 20 12.1V17a1 1 0 0 1-1 1h-.6a2.4 2.4 0 0 1-4.8 0h-3.2a2.4 2.4 0 0 1-4.8 0H5a1 1 0 0 1-1-1v-4.9a2 2 0 0 1 1.3-1.9Zm2.2-.2h9l-1.1-3a.8.8 0 0 0-.7-.5H9.3a.8.8 0 0 0-.7.5ZM7 13.2a1.2 1.2 0 1 0 0 2.4 1.2 1.2 0 0 0 0-2.4Zm10 0a1.2 1.2 0 1 0 0 2.4 1.2 1.2 0 0 0 0-2.4Z';

/**
 * One frame for the account area and the loyalty programme: the brand leads home, and a signed-in
 * customer can reach either area and sign out from every page, in one slim bar that costs a phone's
 * content no second row. Inside the native apps the host owns navigation (docs/product/addresses-and-routes.md#screens-and-routes): no bar at all.
 */
export function TopBar() {
  const { t } = useTranslation();
  const [location] = useLocation();
  const signedIn = isSignedIn(useSessionUser());
  const isWebView = useAppStore((state) => state.isWebView);
  // No sign-in session in a webview, before start-up, or in a shell rendered alone.
  const auth = useContext(ServicesContext)?.auth ?? null;
  if (isWebView) return null;

  const inLoyalty = isLoyaltyAddress(location);
  const loyaltyDemo = location.startsWith(routes.loyalty.demo.href());
  const showNav = signedIn && !loyaltyDemo;
  const home = routes.root.build();

  return (
    <header className="top-bar">
      <div className="top-bar__inner">
        {/* A signed-out visitor's way home is a page load: start-up signs them in first. */}
        {signedIn ? (
          <Link href={home} className="top-bar__brand" aria-label={t('nav-home', 'Roadpass – my account')}>
            <Brand name={t('app-name', 'Roadpass')} />
          </Link>
        ) : (
          <a href={home} className="top-bar__brand" aria-label={t('nav-home', 'Roadpass – my account')}>
            <Brand name={t('app-name', 'Roadpass')} />
          </a>
        )}
        {showNav && (
          <nav className="top-bar__nav" aria-label={t('nav-label', 'Main')}>
            <Link href={home} className="top-bar__link" aria-current={inLoyalty ? undefined : 'page'}>
              {t('nav-account', 'My account')}
            </Link>
            <Link
              href={routes.loyalty.entry.href()}
              className="top-bar__link"
              aria-current={inLoyalty ? 'page' : undefined}
            >
              {t('nav-loyalty', 'Rewards')}
            </Link>
            {auth && <SignOutButton onSignOut={() => auth.signOut()} compact />}
          </nav>
        )}
      </div>
    </header>
  );
}

function Brand({ name }: { name: string }) {
  return (
    <>
      {/* The same car mark as the sign-in pages, so both read as one product. */}
      <svg className="top-bar__logo" viewBox="0 0 32 32" aria-hidden="true" focusable="false">
        <rect width="32" height="32" rx="8" />
        <path transform="translate(4 4)" fill="#fff" d={carMark} />
      </svg>
      <span className="top-bar__name">{name}</span>
    </>
  );
}
