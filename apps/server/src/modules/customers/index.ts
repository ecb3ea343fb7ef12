// The customers module's face: the only file other parts of the server import (decision 0001).
export { customersModule } from './customers-module.js';
export { createCustomerRepository } from './customer-repository.js';
export { seedDemoCustomers, createDemoCustomer, DEMO_PASSWORD } from './demo-customers.js';
export type { Customer, CustomerRepository } from './customer-repository.js';
export { signedInCustomer } from './login-status.js';
