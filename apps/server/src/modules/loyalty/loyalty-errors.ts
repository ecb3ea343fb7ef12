import { apiErrorCodes, loyaltyErrorCodes, type TierSlug } from '@roadpass/contracts';
import { ApiError } from '../../lib/api-error.js';

export { loyaltyErrorCodes };

export const loyaltyErrors = {
  notAMember: () =>
    new ApiError(
      404,
      loyaltyErrorCodes.notAMember,
      'You are not a member of the loyalty programme: join it by granting the loyalty programme consent',
    ),
  otherCustomer: () => ApiError.forbidden('You may only use your own loyalty account: {uuid} is not yours'),
  unknownReward: (slug: string, iso: string) =>
    new ApiError(404, loyaltyErrorCodes.unknownReward, `There is no reward "${slug}" in ${iso}`),
  notAPartnerReward: (slug: string) =>
    new ApiError(
      404,
      loyaltyErrorCodes.notAPartnerReward,
      `The reward "${slug}" has no partner code (it is used without one)`,
    ),
  rewardLocked: (slug: string, tierNeeded: TierSlug, tier: TierSlug) =>
    new ApiError(
      403,
      loyaltyErrorCodes.rewardLocked,
      `The reward "${slug}" is unlocked in the ${tierNeeded} tier; your tier is ${tier}`,
    ),
  partnerCodeNotFound: (slug: string) =>
    new ApiError(
      404,
      loyaltyErrorCodes.partnerCodeNotFound,
      `You have no partner code for "${slug}" yet: POST to this address to get one`,
    ),
  notFound: (message: string) => new ApiError(404, apiErrorCodes.notFound, message),
};
