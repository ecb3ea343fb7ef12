import { useParams } from 'wouter';
import { UnsubscribePage } from '@/features/account-unsubscribe/components/unsubscribe-page';

/** /newsletter/unsubscribe/{token} (no login). */
export default function UnsubscribeRoute() {
  const { token = '' } = useParams<{ token: string }>();
  return <UnsubscribePage token={token} />;
}
