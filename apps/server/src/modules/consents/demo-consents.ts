import type { Db } from '../../db/database.js';

/** Demo consents of product decisions §3. (Placeholder until the consents work lands.) */
export async function seedDemoConsents(_db: Db): Promise<void> {}
