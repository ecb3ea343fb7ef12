import { useMemo, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { CompiledRules, MetaDataList } from '@roadpass/contracts';
import { useHttp } from '@/lib/http';
import { addressRulesQuery } from '../api/get-address-rules';
import { profileRules, provincesOf } from './profile-values';

interface Address {
  country: string;
  province: string;
}

export interface ProfileRules {
  rules: CompiledRules;
  /** The provinces of the address country, by code (empty where there are none). */
  provinces: string[];
  /** The address country's (province's) rules are still on their way: nothing is checked or saved. */
  pending: boolean;
  failed: boolean;
  retry: () => void;
}

/**
 * The rules the form checks with, for the address on screen: the customer's own rules as served with
 * the profile while the address is the saved one; for another country or province, the customer's
 * legal entity rules with the address rules of that country (province), loaded once per country and
 * per province: exactly what the server will check the saved profile with.
 */
export function useProfileRules(customerMeta: MetaDataList, saved: Address, current: Address): ProfileRules {
  const http = useHttp();
  const savedProvinces = useMemo(() => provincesOf(customerMeta), [customerMeta]);
  const savedProvince = savedProvinces.includes(saved.province) ? saved.province : null;
  const sameCountry = current.country === saved.country;
  // The country's own rules: its provinces, and its address rules when no province is chosen.
  const countryRules = useQuery({
    ...addressRulesQuery(http, current.country, null),
    enabled:
      current.country !== '' &&
      (!sameCountry || (savedProvince !== null && !savedProvinces.includes(current.province))),
  });
  const provinces = sameCountry ? savedProvinces : provincesOf(countryRules.data ?? []);
  const province = provinces.includes(current.province) ? current.province : null;
  const asSaved = sameCountry && province === savedProvince;
  const provinceRules = useQuery({
    ...addressRulesQuery(http, current.country, province),
    enabled: !asSaved && province !== null,
  });

  const source = asSaved ? null : province !== null ? provinceRules : countryRules;
  const addressMeta: MetaDataList | undefined = source === null ? customerMeta : source.data;
  // While new ones load, the last rules stay (no marks flicker; the form does not save meanwhile).
  const [lastAddressMeta, setLastAddressMeta] = useState(customerMeta);
  if (addressMeta !== undefined && addressMeta !== lastAddressMeta) setLastAddressMeta(addressMeta);
  const shownMeta = addressMeta ?? lastAddressMeta;
  const rules = useMemo(() => profileRules(customerMeta, shownMeta), [customerMeta, shownMeta]);
  return {
    rules,
    provinces,
    pending: source !== null && source.isPending,
    failed: source !== null && source.isError,
    retry: () => void source?.refetch(),
  };
}
