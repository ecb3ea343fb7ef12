import { useTranslation } from '@/lib/i18n/use-translation';
import './loyalty-ui.css';

/** docs/product/constants.md#business-constants: the loading animation is 100 px wide. */
export const LOADING_ANIMATION_WIDTH = 100;

/** The loyalty loading animation: three points filling up, announced as a status. */
export function LoadingAnimation({ label }: { label?: string }) {
  const { t } = useTranslation();
  const text = label ?? t('loyalty-loading-text');
  return (
    <div className="loyalty-loading" role="status" aria-live="polite">
      <svg
        className="loyalty-loading__animation"
        width={LOADING_ANIMATION_WIDTH}
        height={LOADING_ANIMATION_WIDTH / 4}
        viewBox="0 0 100 25"
        aria-hidden="true"
        focusable="false"
      >
        {[0, 1, 2].map((index) => (
          <circle
            key={index}
            className="loyalty-loading__dot"
            style={{ animationDelay: `${index * 0.18}s` }}
            cx={20 + index * 30}
            cy="12.5"
            r="8"
          />
        ))}
      </svg>
      <p className="loyalty-loading__text">{text}</p>
    </div>
  );
}
