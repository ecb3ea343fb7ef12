import { seedReferenceData } from '../db/seed.js';
import { type LoyaltyContent, loadLoyaltyContent } from '../modules/content/index.js';
import { createLoyaltyService, type LoyaltyService } from '../modules/loyalty/index.js';
import { testConfig } from './test-app.js';
import { createMigratedTestDatabase, type TestDatabase } from './test-database.js';

/**
 * A migrated database of a loyalty suite's own with the reference data, the programme's content and
 * a loyalty service over both: what the loyalty module's database tests start from.
 */
export async function createLoyaltyTestDatabase(): Promise<{
  database: TestDatabase;
  content: LoyaltyContent;
  service: LoyaltyService;
}> {
  const database = await createMigratedTestDatabase();
  await seedReferenceData(database.db);
  const content = await loadLoyaltyContent(testConfig().contentDir);
  return { database, content, service: createLoyaltyService({ db: database.db, content }) };
}
