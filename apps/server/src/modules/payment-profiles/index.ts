// The payment profiles module's face: the only file other parts of the server import (decision 0001).
export {
  paymentProfileRoutes as paymentProfilesModule,
  seedDemoPaymentProfiles,
  paymentProfilesOf,
} from './payment-profiles.js';
