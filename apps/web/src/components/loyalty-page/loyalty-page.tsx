import type { ReactNode } from 'react';
import { Icon } from '@/components/tier-icon';
import { LoyaltyLink } from './loyalty-link';
import { usePageTitle } from './use-page-title';
import '../back-link.css';
import './loyalty-ui.css';

export interface BackLink {
  /** A path inside the loyalty router, e.g. routes.loyalty.status.build(). */
  to: string;
  label: string;
}

interface LoyaltyPageProps {
  /** The page's heading, also used for document.title. */
  title: string;
  back?: BackLink;
  /** Shown above the heading, e.g. the programme's name. */
  eyebrow?: string;
  className?: string;
  /** Set while the page's content is loading (announced to screen readers). */
  busy?: boolean;
  children: ReactNode;
}

/** The frame of every loyalty screen: back link, heading and page title. */
export function LoyaltyPage({ title, back, eyebrow, className, busy, children }: LoyaltyPageProps) {
  usePageTitle(title);
  return (
    <section
      className={['page', 'loyalty-page', className].filter(Boolean).join(' ')}
      aria-labelledby="loyalty-page-title"
      aria-busy={busy || undefined}
    >
      {back && (
        <LoyaltyLink className="back-link" to={back.to}>
          <span className="back-link__arrow" aria-hidden="true">
            <Icon name="chevron-left" size="xs" />
          </span>
          {back.label}
        </LoyaltyLink>
      )}
      <header className="loyalty-page__header">
        {eyebrow && <p className="loyalty-page__eyebrow">{eyebrow}</p>}
        <h1 id="loyalty-page-title" className="loyalty-page__title" tabIndex={-1}>
          {title}
        </h1>
      </header>
      {children}
    </section>
  );
}
