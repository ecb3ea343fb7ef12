import { rangeLengthMessage } from '@roadpass/contracts';

/** The translate function of the app's texts, as far as a rule message needs it. */
type Translate = (key: string, values: { min: number; max: number; count?: number }) => string;

/**
 * What a customer reads for a broken rangelength rule, in the words the server's 400 uses
 * (contracts' rangeLengthMessage): "Use exactly 5 characters." for 5:5, "Use at most 40 characters."
 * for 0:40 (the plural form is picked by the count), and `betweenKey`'s "{{min}} to {{max}}" text for
 * any other range.
 */
export function rangeLengthText(
  t: Translate,
  range: { min: number; max: number },
  betweenKey = 'rules-rangelength',
): string {
  const { key, values } = rangeLengthMessage(range);
  return t(key === 'rules-rangelength' ? betweenKey : key, values);
}
