// The sessions module's face: the only file other parts of the server import (decision 0001).
export { endSessions, type SessionEndReason, type SessionSelector } from './end-sessions.js';
export { sessionsPlugin, type SessionState } from './sessions-plugin.js';
export { sessionsRoutes as sessionsModule } from './sessions-routes.js';
export { recordSessionDevice } from './session-devices.js';
export { purgeSessionData } from './purge.js';
