import { ConsentSettings } from '@/features/account-privacy/components/consent-settings';
import { DataDownload } from '@/features/account-data-rights/components/data-download';
import { NewsletterSetting } from '@/features/account-privacy/components/newsletter-setting';
import { PointsRemindersSetting } from '@/features/account-privacy/components/points-reminders-setting';
import { AccountSubPageRoute } from './account-sub-page-route';

/** /{COUNTRY}/{lang}/myaccount/privacy: the consents the customer may edit, points reminders, the newsletter, then "Download my data". */
export default function PrivacyRoute() {
  return (
    <AccountSubPageRoute titleKey="privacy-title">
      {(user) => (
        <>
          <ConsentSettings user={user} />
          <PointsRemindersSetting user={user} />
          <NewsletterSetting />
          <DataDownload />
        </>
      )}
    </AccountSubPageRoute>
  );
}
