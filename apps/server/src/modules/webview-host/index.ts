// The webview host module's face: the only file other parts of the server import (decision 0001).
export { webviewHostRoutes as webviewHostModule } from './webview-host-routes.js';
