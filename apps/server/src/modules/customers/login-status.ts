import { legalEntityById, type LoginStatus } from '@roadpass/contracts';
import type { Customer } from './customer-repository.js';

/** The session data of spec §3 for a customer. */
export function toLoginStatus(customer: Customer): LoginStatus {
  return {
    legalEntityId: customer.legal_entity_id,
    user: {
      uuid: customer.id,
      language: customer.language,
      legalEntityId: customer.legal_entity_id,
      legalEntityIso: legalEntityById(customer.legal_entity_id)?.isoCountry ?? 'DE',
      email: customer.email,
      firstName: customer.first_name,
      lastName: customer.last_name,
      salutation: customer.salutation,
    },
  };
}
