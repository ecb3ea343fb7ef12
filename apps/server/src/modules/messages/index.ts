// The messages module's face: the only file other parts of the server import (decision 0001).
export { messagesModule } from './messages-module.js';
export { createMessageSender } from './message-sender.js';
export { loadMessageTexts, messageLanguage, linkInLanguage, longDate } from './message-texts.js';
export { createSmtpTransport } from './smtp-transport.js';
export type { MessageSender } from './message-sender.js';
export type { MessageTexts, MessageKey } from './message-texts.js';
