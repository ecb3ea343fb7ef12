// The content module's face: the only file other parts of the server import (decision 0001).
export { contentModule } from './content-module.js';
export { loadLoyaltyContent } from './loyalty-content.js';
export { loadTranslations } from './translations.js';
export type { LoyaltyContent, TierRule, RewardRule } from './loyalty-content.js';
export type { TranslationSet } from './translations.js';
export { requestedLanguage } from './requested-language.js';
