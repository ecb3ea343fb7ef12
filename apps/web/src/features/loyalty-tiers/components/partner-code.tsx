import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef } from 'react';
import { useTranslation } from '@/lib/i18n/use-translation';
import { Icon } from '@/components/tier-icon';
import { useHttp } from '@/lib/http';
import { generatePartnerCodeMutation } from '@/lib/loyalty/api/generate-partner-code';
import { partnerCodeQuery } from '@/lib/loyalty/api/get-partner-code';
import { useCustomer } from '@/lib/loyalty/use-customer';
import { InlineError } from '@/components/loyalty-page/inline-error';
import { copyToClipboard } from '@/lib/native-bridge';
import { useAppStore } from '@/lib/state/app-store';

/**
 * The customer's code for a partner reward: read from the server (so it is the same after a reload),
 * generated on request when there is none yet (404), shown large and copyable.
 */
export function PartnerCode({ slug, partnerName }: { slug: string; partnerName: string }) {
  const { t } = useTranslation();
  const http = useHttp();
  const queryClient = useQueryClient();
  const { uuid } = useCustomer();
  const copyButton = useRef<HTMLButtonElement>(null);
  const lookup = useQuery(partnerCodeQuery(http, uuid, slug));
  const generate = useMutation({
    ...generatePartnerCodeMutation(http, queryClient, uuid, slug),
    // "Get my code" is replaced by the code: the focus goes to its Copy button, not to the page.
    onSettled: () => requestAnimationFrame(() => copyButton.current?.focus()),
    onError: () =>
      useAppStore.getState().addToast({ type: 'error', message: t('loyalty-partner-code-failed') }),
  });
  const code = lookup.data ?? null;

  const copy = async (value: string) => {
    const copied = await copyToClipboard(value);
    useAppStore
      .getState()
      .addToast(
        copied
          ? { type: 'success', message: t('loyalty-partner-code-copied') }
          : { type: 'error', message: t('loyalty-partner-code-copy-failed') },
      );
  };

  return (
    <section
      className="card partner-code"
      aria-labelledby="partner-code-title"
      aria-busy={lookup.isPending || undefined}
    >
      <h2 id="partner-code-title" className="loyalty-section-title">
        {t('loyalty-partner-code-title')}
      </h2>
      <div className="partner-code__content" aria-live="polite">
        {code ? (
          <>
            <p className="partner-code__intro">{t('loyalty-partner-code-intro', { partner: partnerName })}</p>
            <p className="partner-code__value" translate="no">
              {code.code}
            </p>
            <button
              ref={copyButton}
              type="button"
              className="button button--secondary"
              onClick={() => void copy(code.code)}
            >
              <Icon name="copy" size="xs" />
              {t('loyalty-partner-code-copy')}
            </button>
          </>
        ) : lookup.isError ? (
          <InlineError
            message={t('loyalty-load-error')}
            error={lookup.error}
            onRetry={() => void lookup.refetch()}
            retrying={lookup.isFetching}
          />
        ) : lookup.isPending ? (
          <span className="loyalty-skeleton partner-code__skeleton" aria-hidden="true" />
        ) : (
          <>
            <p className="partner-code__intro">{t('loyalty-partner-code-none')}</p>
            <button
              type="button"
              className="button button--primary"
              onClick={() => generate.mutate()}
              disabled={generate.isPending}
              aria-busy={generate.isPending || undefined}
            >
              <Icon name="gift" size="xs" />
              {generate.isPending ? t('loyalty-partner-code-getting') : t('loyalty-partner-code-get')}
            </button>
          </>
        )}
      </div>
    </section>
  );
}
