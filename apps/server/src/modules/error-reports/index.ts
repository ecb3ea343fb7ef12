// The error reports module's face: the only file other parts of the server import (decision 0001).
export { errorReportRoutes as errorReportsModule } from './error-report-routes.js';
