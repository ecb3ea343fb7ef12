// The runtime configuration module's face: the only file other parts of the server import (decision 0001).
export { runtimeConfigRoutes as runtimeConfigModule, runtimeConfigOf } from './runtime-config-routes.js';
