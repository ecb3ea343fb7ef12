// The newsletter module's face: the only file other parts of the server import (decision 0001).
export { newsletterRoutes as newsletterModule } from './newsletter-routes.js';
export { createNewsletterService } from './newsletter-service.js';
export { seedDemoNewsletter } from './demo-newsletter.js';
export type { NewsletterService } from './newsletter-service.js';
