import type { RuleViolation } from '@roadpass/contracts';
import type { TranslationSet } from '../content/translations.js';
import { messageLanguage } from '../messages/message-texts.js';

/**
 * The message of a broken rule in the customer's language: the `rules-{validator}` text of
 * content/translations (the app shows the same texts), with {{min}}, {{max}} and {{parameter}}.
 */
export function ruleText(translations: TranslationSet, language: string, violation: RuleViolation): string {
  const texts = translations[messageLanguage(language)];
  const template =
    texts[`rules-${violation.rule}`] ?? translations.en[`rules-${violation.rule}`] ?? texts['rules-pattern']!;
  const [min = '', max = ''] = violation.parameter.split(':');
  return template
    .replaceAll('{{min}}', min)
    .replaceAll('{{max}}', max)
    .replaceAll('{{parameter}}', violation.parameter);
}
