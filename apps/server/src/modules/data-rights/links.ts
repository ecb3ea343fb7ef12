import { appPaths, legalEntityById } from '@roadpass/contracts';
import type { CustomerRow } from '../../db/schema.js';
import { linkInLanguage } from '../messages/index.js';

/** A link to one of the customer's account pages (or the account home) for an e-mail, in their language. */
export function accountPageLink(
  publicUrl: string,
  customer: Pick<CustomerRow, 'legal_entity_id' | 'language'>,
  page?: string,
): string {
  const country = legalEntityById(customer.legal_entity_id)?.isoCountry ?? 'DE';
  const home = appPaths.accountHome(country, customer.language.slice(0, 2));
  return linkInLanguage(publicUrl, page ? `${home}/${page}` : home, customer.language);
}
