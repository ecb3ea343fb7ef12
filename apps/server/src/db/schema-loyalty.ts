/** Tables of the loyalty module (ledger, accounts, partner codes). */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface LoyaltyTables {}
