import { useParams } from 'wouter';
import { routes } from '@/config/routes';
import { ProfilePage } from '@/features/account-profile/components/profile-page';
import { AccountSubPageRoute } from './account-sub-page-route';

/** /{COUNTRY}/{lang}/myaccount/profile */
export default function ProfileRoute() {
  const { country = '', lang = '' } = useParams<{ country: string; lang: string }>();
  return (
    <AccountSubPageRoute titleKey="profile-title">
      {() => <ProfilePage mobileHref={routes.account.mobile.build(country, lang)} />}
    </AccountSubPageRoute>
  );
}
