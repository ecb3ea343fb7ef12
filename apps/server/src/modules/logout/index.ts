// The logout module's face: the only file other parts of the server import (decision 0001).
export { logoutRoutes as logoutModule } from './logout-routes.js';
