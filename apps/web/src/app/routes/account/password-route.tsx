import { PasswordForm } from '@/features/account-password/components/password-form';
import { AccountSubPageRoute } from './account-sub-page-route';

/** /{COUNTRY}/{lang}/myaccount/password */
export default function PasswordRoute() {
  return <AccountSubPageRoute titleKey="password-title">{() => <PasswordForm />}</AccountSubPageRoute>;
}
