// The security activity module's face: the only file other parts of the server import (decision 0001).
export { recordSecurityEvent, type SecurityEventDetails } from './security-events.js';
export { securityActivityRoutes as securityActivityModule } from './activity-routes.js';
