import type { Db } from '../../db/database.js';
import type { LoyaltyContent } from '../content/loyalty-content.js';

/** Demo loyalty states of product decisions §3. (Placeholder until the loyalty work lands.) */
export async function seedDemoLoyalty(_db: Db, _content: LoyaltyContent): Promise<void> {}
