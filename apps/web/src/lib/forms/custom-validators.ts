// The validators of our own (fiscal code, adult age, phone per country, common passwords …): the chunk
// that load-custom-validators.ts loads after a form shows. libphonenumber's metadata and the
// common-password list are about 14 kB gzip that no first paint needs (the 120 kB first-load budget,
// docs/decisions/0014-web-bundle-budget.md). Import it only through loadCustomValidators.
export { customValidators } from '@roadpass/contracts';
