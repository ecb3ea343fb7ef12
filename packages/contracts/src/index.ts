export * from './api-error.js';
export * from './legal-entities.js';
export * from './locales.js';
export * from './customer.js';
export * from './content.js';
export * from './runtime-config.js';
export * from './api-paths.js';
