import { NewsletterSetting } from '@/features/account-privacy/components/newsletter-setting';
import { AccountSubPageRoute } from './account-sub-page-route';

/** /{COUNTRY}/{lang}/myaccount/privacy */
export default function PrivacyRoute() {
  return <AccountSubPageRoute titleKey="privacy-title">{() => <NewsletterSetting />}</AccountSubPageRoute>;
}
