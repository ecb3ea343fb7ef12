// The e-mail change module's face: the only file other parts of the server import (decision 0001).
export { emailConfirmationRoutes as emailChangeModule } from './email-confirmation-routes.js';
export { createEmailChangeService } from './email-change-service.js';
export type { EmailChangeService } from './email-change-service.js';
