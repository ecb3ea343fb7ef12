import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { DemoIcons } from './demo-icons';
import { DemoMessages } from './demo-messages';
import { DemoTiers } from './demo-tiers';
import './loyalty-demo.css';

/** /demo (spec §2, no login): a public showcase of the loyalty programme and its building blocks. */
export function LoyaltyDemo() {
  const { t } = useTranslation();

  useEffect(() => {
    document.title = `${t('loyalty-demo-title')} · ${t('app-name')}`;
  }, [t]);

  return (
    <div className="page loyalty-demo">
      <header className="loyalty-demo__header">
        <h1 className="loyalty-demo__title">{t('loyalty-demo-title')}</h1>
        <p className="loyalty-demo__lead">{t('loyalty-demo-intro')}</p>
      </header>
      <DemoTiers />
      <DemoIcons />
      <DemoMessages />
    </div>
  );
}
