// The loyalty module's face: the only file other parts of the server import (decision 0001).
export { loyaltyModule } from './loyalty-module.js';
export { seedDemoLoyalty } from './demo-loyalty.js';
export type { Clock } from './loyalty-rules.js';
export type { LoyaltyService } from './loyalty-service.js';
export { addMonths, systemClock, incomingEventViolations } from './loyalty-rules.js';
export { serviceClientSecret, serviceClientSettings } from './service-client.js';
export { createLoyaltyService } from './loyalty-service.js';
export { startExpiryTimer } from './expiry-timer.js';
export { createExpiryReminders, reminderWindows } from './expiry-reminders.js';
export type { ExpiryReminders } from './expiry-reminders.js';
export { expiryForecast } from './expiry-forecast.js';
