import { queryOptions } from '@tanstack/react-query';
import { profileKeys } from './query-keys';

/** Province names per country and code, e.g. ES → 28 → "Madrid". */
export type ProvinceNames = Record<string, Record<string, string>>;

/**
 * The served rules name provinces by code only; their names are in the rules content the server
 * serves them from (one source). Loaded on demand: only an address in a country with provinces needs
 * them. The content's newest version is what the server serves; move this import along with it.
 */
export const provinceNamesQuery = () =>
  queryOptions({
    queryKey: profileKeys.provinceNames(),
    queryFn: async (): Promise<ProvinceNames> => {
      const { provinces } = (await import('../../../../../../content/account-rules/v1.json')).default;
      return Object.fromEntries(
        Object.entries(provinces).map(([country, list]) => [
          country,
          Object.fromEntries(Object.entries(list).map(([code, province]) => [code, province.name])),
        ]),
      );
    },
    staleTime: Infinity,
  });
