// The chunk use-phone-format.ts loads: libphonenumber and its metadata (about 10 kB gzip, shared with
// the custom validators' chunk) stay out of the first load of every page that shows a number (the
// 120 kB budget, docs/decisions/0014-web-bundle-budget.md). Import it only through loadPhoneFormat.
export { formatPhoneNumber } from '@roadpass/contracts';
