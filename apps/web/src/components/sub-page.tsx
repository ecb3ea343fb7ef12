import { useEffect, type ReactNode } from 'react';
import { useTranslation } from '@/lib/i18n/use-translation';
import { Link } from 'wouter';
import './back-link.css';
import './sub-page.css';

interface SubPageProps {
  /** The page's heading (its h1) and the first part of the document title. */
  title: string;
  backHref: string;
  backLabel: string;
  lead?: ReactNode;
  children: ReactNode;
}

/** A page below another: a back link, the page's own h1, then its content. */
export function SubPage({ title, backHref, backLabel, lead, children }: SubPageProps) {
  const { t } = useTranslation();
  useEffect(() => {
    document.title = `${title} · ${t('app-name', 'Roadpass')}`;
  }, [title, t]);
  return (
    <section className="page sub-page" aria-labelledby="sub-page-title">
      <Link className="back-link" href={backHref}>
        <span className="back-link__arrow" aria-hidden="true">
          {/* The loyalty pages' chevron (Icon "chevron-left", xs), drawn here: the icon module would
              add 3 kB to the account pages' first load. */}
          <svg className="back-link__chevron" width="24" height="24" viewBox="0 0 24 24" focusable="false">
            <path d="M15 18l-6-6 6-6" />
          </svg>
        </span>
        {backLabel}
      </Link>
      <h1 id="sub-page-title" className="sub-page__title">
        {title}
      </h1>
      {lead && <p className="sub-page__lead">{lead}</p>}
      {children}
    </section>
  );
}
