// The web app module's face: the only file other parts of the server import (decision 0001).
export { webAppRoutes as webAppModule, webAppFileRoutes } from './web-app-routes.js';
export { SIGNED_OUT_PRELOAD_SCRIPT_HASH } from './signed-out-preload.js';
