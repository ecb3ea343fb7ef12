import type { ReactNode } from 'react';
import { useTranslation } from '@/lib/i18n/use-translation';
import { Redirect, useParams } from 'wouter';
import type { SessionUser } from '@roadpass/contracts';
import { SubPage } from '@/components/sub-page';
import { routes } from '@/config/routes';
import { useSessionUser } from '@/lib/session/session-user';

/**
 * The frame of every account sub-page (/{COUNTRY}/{lang}/myaccount/…): needs the signed-in customer,
 * shows a back link to the account home and the page's own h1.
 */
export function AccountSubPageRoute({
  titleKey,
  children,
}: {
  titleKey: string;
  children: (user: SessionUser) => ReactNode;
}) {
  const { t } = useTranslation();
  const params = useParams<{ country: string; lang: string }>();
  const user = useSessionUser();
  if (!user) return <Redirect to={routes.root.build()} replace />;
  return (
    <SubPage
      title={t(titleKey)}
      backHref={routes.accountHome.build(params.country ?? '', params.lang ?? '')}
      backLabel={t('account-back')}
    >
      {children(user)}
    </SubPage>
  );
}
