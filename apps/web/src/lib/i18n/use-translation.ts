import { useMemo, useSyncExternalStore } from 'react';
import { i18n, type Translations } from './i18n';

const version = () => i18n.version;

/**
 * The texts of the active language for a component: `t(key, default or options)` and the
 * translations themselves. The component renders again when the language changes or texts arrive,
 * and `t` is then a new function, so memoised values that use it are computed again.
 */
export function useTranslation(): { t: Translations['t']; i18n: Translations } {
  const current = useSyncExternalStore(i18n.subscribe, version, version);
  // eslint-disable-next-line react-hooks/exhaustive-deps -- a new t for each version, on purpose
  return useMemo(() => ({ t: (...args: Parameters<Translations['t']>) => i18n.t(...args), i18n }), [current]);
}
