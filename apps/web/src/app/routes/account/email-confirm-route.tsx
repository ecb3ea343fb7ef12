import { useParams } from 'wouter';
import { EmailConfirmPage } from '@/features/account-email-confirm/components/email-confirm-page';

/** /email/confirm/{token} (no login). */
export default function EmailConfirmRoute() {
  const { token = '' } = useParams<{ token: string }>();
  return <EmailConfirmPage token={token} />;
}
