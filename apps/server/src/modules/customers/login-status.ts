import { legalEntityById, type LoginStatus } from '@roadpass/contracts';
import type { FastifyRequest } from 'fastify';
import { ApiError } from '../../lib/api-error.js';
import type { Customer, CustomerRepository } from './customer-repository.js';

/** The session data of docs/product/data.md#entities-and-fields for a customer. */
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

/** The customer the request's token belongs to; 404 when the account no longer exists. */
export async function signedInCustomer(
  customers: CustomerRepository,
  request: FastifyRequest,
): Promise<Customer> {
  const customer = await customers.findById(request.customer!.customerId);
  if (!customer) throw ApiError.notFound('No customer account belongs to this token');
  return customer;
}
