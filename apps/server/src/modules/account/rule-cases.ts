import { compileRules, type MetaDataList } from '@roadpass/contracts';

/**
 * Test helper: values at and across the boundary of each served rule, GENERATED FROM THE RULES (the
 * parameter decides the values), starting from a profile that passes them. Each case says which rule
 * it is about and whether that rule must be broken.
 */
export interface RuleCase {
  label: string;
  field: string;
  value: unknown;
  /** The rule the case is about (validator name) and whether it must be broken. */
  rule: string;
  /** true/false; 'some': at least one case of the same label prefix (one rule) must break it. */
  broken: boolean | 'some';
}

const isoDay = (d: Date) => d.toISOString().slice(0, 10);
const yearsBefore = (today: Date, years: number, days = 0) =>
  new Date(Date.UTC(today.getUTCFullYear() - years, today.getUTCMonth(), today.getUTCDate() + days));

/** A value of the same length and character class as `item` but not in `list`. */
function outsideList(item: string, list: string[]): string {
  const last = item.at(-1) ?? 'A';
  const pool = /[0-9]/.test(last)
    ? '0123456789'
    : /[a-z]/.test(last)
      ? 'abcdefghijklmnopqrstuvwxyz'
      : 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
  for (const c of pool) {
    const candidate = item.slice(0, -1) + c;
    if (!list.includes(candidate)) return candidate;
  }
  return `${item}#`;
}

export function ruleCases(
  list: MetaDataList,
  sample: Readonly<Record<string, unknown>>,
  today: Date,
  otherPhones: string[],
): RuleCase[] {
  const cases: RuleCase[] = [];
  const compiled = compileRules(list);
  for (const { attribute: field, validator, parameter } of list) {
    if (compiled[field]?.invisible && validator !== 'invisible') continue;
    const add = (label: string, value: unknown, broken: boolean | 'some', rule = validator) =>
      cases.push({ label: `${field} ${rule} ${parameter}: ${label}`, field, value, rule, broken });
    const base = typeof sample[field] === 'string' ? (sample[field] as string) : '';
    switch (validator) {
      case 'required':
        if (parameter === 'true') {
          add('empty', '', true);
          add('the sample', base, false);
        }
        break;
      case 'rangelength': {
        const [min, max] = parameter.split(':').map(Number) as [number, number];
        if (min > 0) add(`${min} characters`, 'x'.repeat(min), false);
        if (min > 1) add(`${min - 1} characters`, 'x'.repeat(min - 1), true);
        add(`${max} characters`, 'x'.repeat(max), false);
        add(`${max + 1} characters`, 'x'.repeat(max + 1), true);
        break;
      }
      case 'pattern':
      case 'email':
      case 'phone':
        add('the sample', base, false);
        for (const mutated of [
          `${base}#`,
          `#${base.slice(1)}`,
          `${base.slice(0, 1)} ${base.slice(1)}`.replace('@', ''),
        ])
          add(`mutated "${mutated}"`, mutated, 'some');
        break;
      case 'listMatch': {
        const items = parameter.split('|');
        for (const item of items) add(`"${item}"`, item, false);
        add(`outside "${outsideList(items[0]!, items)}"`, outsideList(items[0]!, items), true);
        break;
      }
      case 'adultAge': {
        const years = Number(parameter);
        add(`exactly ${years} today`, isoDay(yearsBefore(today, years)), false);
        add(`${years} tomorrow`, isoDay(yearsBefore(today, years, 1)), true);
        add('120 years', isoDay(yearsBefore(today, 120)), false);
        add('121 years', isoDay(yearsBefore(today, 121)), true);
        add('not a calendar day', `${today.getUTCFullYear() - years - 5}-02-30`, true);
        break;
      }
      case 'fiscalCode':
        for (let c = 65; c <= 90; c += 1) {
          const value = base.slice(0, 15) + String.fromCharCode(c);
          add(`check character ${String.fromCharCode(c)}`, value, value !== base);
        }
        break;
      case 'dniNie':
        // The sample's number with every letter: only its own check letter passes.
        for (let c = 65; c <= 90; c += 1) {
          const value = base.slice(0, -1) + String.fromCharCode(c);
          add(`check letter ${String.fromCharCode(c)}`, value, value !== base);
        }
        break;
      case 'phoneForCountry':
        add('the sample', base, false);
        add('shorter', base.slice(0, -3), 'some');
        add('much shorter', base.slice(0, 6), 'some');
        add('without +', base.slice(1), true);
        for (const other of otherPhones.filter((p) => p.slice(0, 4) !== base.slice(0, 4)).slice(0, 2))
          add(`another country's ${other}`, other, true);
        break;
      case 'invisible':
        if (parameter === 'true') add('a value is ignored', 'IGNORED', false);
        break;
      case 'readonly':
        if (parameter === 'true')
          add('a change', base.length === 2 ? outsideList(base, [base]) : `${base}x`, true);
        break;
      default:
        break;
    }
  }
  return cases;
}
