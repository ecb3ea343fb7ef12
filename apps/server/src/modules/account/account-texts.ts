import { parseRangeLength, rangeLengthMessage, type Language, type RuleViolation } from '@roadpass/contracts';
import type { TranslationSet } from '../content/index.js';
import { messageLanguage } from '../messages/index.js';

/**
 * The message of a broken rule in the customer's language: the `rules-{validator}` text of
 * content/translations (the app shows the same texts), with {{min}}, {{max}} and {{parameter}}. A
 * rangelength rule reads as the app reads it (contracts' rangeLengthMessage): "exactly {{count}}" for a
 * fixed length, "at most {{count}}" where only the maximum can be missed, with the plural form of the
 * customer's language chosen as i18next chooses it.
 */
export function ruleText(translations: TranslationSet, language: string, violation: RuleViolation): string {
  const lang = messageLanguage(language);
  const texts = translations[lang];
  if (violation.rule === 'rangelength') {
    const { key, values } = rangeLengthMessage(parseRangeLength(violation.parameter));
    const template =
      values.count === undefined ? texts[key] : pluralText(translations, lang, key, values.count);
    if (template) return fill(template, { ...values, parameter: violation.parameter });
  }
  const [min = '', max = ''] = violation.parameter.split(':');
  const template =
    texts[`rules-${violation.rule}`] ?? translations.en[`rules-${violation.rule}`] ?? texts['rules-pattern']!;
  return fill(template, { min, max, parameter: violation.parameter });
}

/**
 * The `{key}_{category}` text for a count, as i18next picks it: the language's CLDR plural category
 * (Intl.PluralRules), else `_other` (e.g. French "many", which the content files do not carry).
 */
function pluralText(
  translations: TranslationSet,
  lang: Language,
  key: string,
  count: number,
): string | undefined {
  const texts = translations[lang];
  const category = new Intl.PluralRules(lang).select(count);
  return texts[`${key}_${category}`] ?? texts[`${key}_other`];
}

function fill(template: string, values: Readonly<Record<string, string | number>>): string {
  return template.replace(/\{\{(\w+)\}\}/g, (whole, name: string) =>
    values[name] === undefined ? whole : String(values[name]),
  );
}
