import { useParams } from 'wouter';
import { routes } from '@/config/routes';
import { SecurityPage } from '@/features/account-security/components/security-page';
import { AccountSubPageRoute } from './account-sub-page-route';

/** /{COUNTRY}/{lang}/myaccount/security */
export default function SecurityRoute() {
  const { country = '', lang = '' } = useParams<{ country: string; lang: string }>();
  return (
    <AccountSubPageRoute titleKey="security-title">
      {() => (
        <SecurityPage
          activityHref={routes.account.securityActivity.build(country, lang)}
          passkeysHref={routes.account.passkeys.build(country, lang)}
        />
      )}
    </AccountSubPageRoute>
  );
}
