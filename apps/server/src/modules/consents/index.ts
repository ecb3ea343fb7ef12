// The consents module's face: the only file other parts of the server import (decision 0001).
export { consentRoutes as consentsModule } from './consent-routes.js';
export { seedDemoConsents } from './demo-consents.js';
export {
  isLoyaltyMember,
  isLoyaltyMemberSql,
  loyaltyMemberships,
  saveConsent,
} from './consent-repository.js';
