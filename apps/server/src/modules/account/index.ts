// The account module's face: the only file other parts of the server import (decision 0001).
export { accountModule } from './account-module.js';
export { loadAccountRules } from './account-rules-content.js';
export { ruleText } from './account-texts.js';
