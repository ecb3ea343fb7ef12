// The validators of our own (fiscal code, phone per country, …), loaded on their own after the form
// shows: libphonenumber's metadata and the common-password list are about 14 kB gzip that the first
// paint does not need (the 150 kB first-load budget, docs/decisions/web-bundle-budget.md).
export { customValidators } from '@roadpass/contracts';
