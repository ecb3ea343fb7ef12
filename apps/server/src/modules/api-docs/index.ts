// The API reference page's face: the only file other parts of the server import (decision 0001).
export { apiDocsRoutes as apiDocsModule } from './api-docs-routes.js';
