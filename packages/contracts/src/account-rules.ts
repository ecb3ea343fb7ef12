// The one interpreter of served validation rules (docs/product/account-rules.md#validation-rules), used by the server to enforce and by the
// app to check before sending. Plain values only: the browser bundles this module.

/** Same shape as the MetaDataEntry schema in account.ts (kept here as a plain type). */
export interface RuleEntry {
  attribute: string;
  validator: string;
  parameter: string;
}

/** A validator of our own: true when the (non-empty, trimmed) value passes. */
export type CustomValidator = (value: string, parameter: string, context: RuleContext) => boolean;

export interface RuleContext {
  /** "Today" for age rules; the server passes its clock, tests a fixed date. */
  today: Date;
  /** Every value of the form, for rules that read another field. */
  values: Readonly<Record<string, unknown>>;
}

export interface PatternRule {
  /** pattern, phone, email or listMatch: each yields a pattern (docs/product/account-rules.md#validation-rules). */
  validator: string;
  parameter: string;
  regex: RegExp;
}

export interface FieldRules {
  attribute: string;
  required: boolean;
  /** invisible true hides the attribute and drops all its rules (docs/product/account-rules.md#validation-rules). */
  invisible: boolean;
  /** Shown but not changeable (e.g. HU address fields); the server refuses a change. */
  readonly: boolean;
  patterns: PatternRule[];
  /** rangelength min:max, default 0:255 (docs/product/account-rules.md#validation-rules, docs/product/constants.md#business-constants). */
  minLength: number;
  maxLength: number;
  /** Validators of our own, kept under their name. */
  custom: { validator: string; parameter: string }[];
}

export type CompiledRules = Record<string, FieldRules>;

export interface RuleViolation {
  field: string;
  /** The validator that failed: required, pattern, phone, email, listMatch, rangelength, readonly or a custom name. */
  rule: string;
  parameter: string;
}

/**
 * The profile fields that make the address (docs/product/data.md#entities-and-fields): their rules come from the address country (and
 * province); read-only where the legal entity disables address editing (HU).
 */
export const addressFields = [
  'addressStreet',
  'addressAdditionalStreet',
  'addressCity',
  'addressZipCode',
  'addressProvinceIsoCode',
  'addressCountryIsoCode',
] as const;

/**
 * Fields holding codes written in capitals (the Italian fiscal code, the Spanish DNI/NIE, post codes
 * such as 1012 AB): the app sends them so and the server stores them so, however they were typed.
 */
export const upperCaseFields = ['fiscalCode', 'passportId', 'addressZipCode'] as const;

export const DEFAULT_RANGE_LENGTH = { min: 0, max: 255 } as const;

/** Patterns used when a pattern-like validator's parameter is just "true". */
const defaultPatterns: Record<string, string> = {
  email: '^[^\\s@]+@[^\\s@]+\\.[^\\s@]+$',
  phone: '^\\+[1-9][0-9]{6,14}$',
};

const patternValidators = new Set(['pattern', 'phone', 'email', 'listMatch']);

const isTrue = (parameter: string) => parameter.trim().toLowerCase() === 'true';

function patternOf(validator: string, parameter: string): RegExp | null {
  try {
    if (validator === 'listMatch') {
      const items = parameter.split('|').map((item) => item.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
      return new RegExp(`^(?:${items.join('|')})$`);
    }
    const source = isTrue(parameter) ? defaultPatterns[validator] : parameter;
    return source ? new RegExp(source, 'u') : null;
  } catch {
    return null;
  }
}

/** A rangelength parameter "min:max" (as rules serve it and violations carry it); defaults where unreadable. */
export function parseRangeLength(parameter: string): { min: number; max: number } {
  const [rawMin, rawMax] = parameter.split(':');
  const min = Number.parseInt(rawMin ?? '', 10);
  const max = Number.parseInt(rawMax ?? '', 10);
  return {
    min: Number.isFinite(min) && min >= 0 ? min : DEFAULT_RANGE_LENGTH.min,
    max: Number.isFinite(max) && max >= 0 ? max : DEFAULT_RANGE_LENGTH.max,
  };
}

/** Reads a served list into rules per attribute. Later entries for the same rule win. */
export function compileRules(list: readonly RuleEntry[]): CompiledRules {
  const rules: CompiledRules = {};
  const fieldOf = (attribute: string): FieldRules =>
    (rules[attribute] ??= {
      attribute,
      required: false,
      invisible: false,
      readonly: false,
      patterns: [],
      minLength: DEFAULT_RANGE_LENGTH.min,
      maxLength: DEFAULT_RANGE_LENGTH.max,
      custom: [],
    });
  for (const { attribute, validator, parameter } of list) {
    const field = fieldOf(attribute);
    if (validator === 'required') field.required = isTrue(parameter);
    else if (validator === 'invisible') field.invisible = isTrue(parameter);
    else if (validator === 'readonly') field.readonly = isTrue(parameter);
    else if (validator === 'rangelength') Object.assign(field, rangeFields(parseRangeLength(parameter)));
    else if (patternValidators.has(validator)) {
      const regex = patternOf(validator, parameter);
      if (regex) field.patterns.push({ validator, parameter, regex });
    } else field.custom.push({ validator, parameter });
  }
  for (const field of Object.values(rules)) {
    if (field.invisible) {
      // docs/product/account-rules.md#validation-rules: invisible drops all the attribute's rules.
      Object.assign(field, { required: false, readonly: false, patterns: [], custom: [] });
      Object.assign(field, rangeFields(DEFAULT_RANGE_LENGTH));
    }
  }
  return rules;
}

/**
 * The values a field's listMatch rules offer (e.g. the salutations: the form's choices come from the
 * rules, not from code): those of the first list that every other list of the field also names, in
 * the served order; none without such a rule or for an invisible field.
 */
export function listedValues(field: FieldRules | undefined): string[] {
  if (!field || field.invisible) return [];
  const [first, ...others] = field.patterns
    .filter((pattern) => pattern.validator === 'listMatch')
    .map((pattern) => pattern.parameter.split('|'));
  return (first ?? []).filter((value) => others.every((list) => list.includes(value)));
}

/**
 * The message of a broken rangelength rule: its key in content/translations and the values it is
 * filled in with. A fixed length reads "exactly {{count}}"; a range whose minimum no non-empty value
 * can miss (0 or 1: an empty value breaks only `required`) reads "at most {{count}}"; any other range
 * "{{min}} to {{max}}". Keys with a count have i18next plural forms (`_one`, `_other`).
 */
export function rangeLengthMessage({ min, max }: { min: number; max: number }): {
  key: 'rules-rangelength' | 'rules-rangelength-exact' | 'rules-rangelength-max';
  values: { min: number; max: number; count?: number };
} {
  if (min === max) return { key: 'rules-rangelength-exact', values: { min, max, count: max } };
  if (min <= 1 && max > min) return { key: 'rules-rangelength-max', values: { min, max, count: max } };
  return { key: 'rules-rangelength', values: { min, max } };
}

const rangeFields = ({ min, max }: { min: number; max: number }) => ({ minLength: min, maxLength: max });

const textOf = (value: unknown): string =>
  value === null || value === undefined ? '' : typeof value === 'string' ? value.trim() : String(value);

/**
 * Checks values against compiled rules. Only attributes that have rules are checked; an empty value
 * breaks only `required`. `customValidators` are the validators of our own; an unknown one fails
 * closed on the server (`unknownCustom: 'fail'`) and is skipped in the browser only if the caller says so.
 */
export function checkValues(
  rules: CompiledRules,
  values: Readonly<Record<string, unknown>>,
  options: {
    today?: Date;
    customValidators?: Readonly<Record<string, CustomValidator>>;
    unknownCustom?: 'fail' | 'skip';
  } = {},
): RuleViolation[] {
  const context: RuleContext = { today: options.today ?? new Date(), values };
  const custom = options.customValidators ?? {};
  const violations: RuleViolation[] = [];
  for (const field of Object.values(rules)) {
    if (field.invisible) continue;
    const text = textOf(values[field.attribute]);
    const add = (rule: string, parameter: string) =>
      violations.push({ field: field.attribute, rule, parameter });
    if (text === '') {
      if (field.required) add('required', 'true');
      continue;
    }
    const length = [...text].length;
    if (length < field.minLength || length > field.maxLength)
      add('rangelength', `${field.minLength}:${field.maxLength}`);
    for (const pattern of field.patterns) {
      if (!pattern.regex.test(text)) add(pattern.validator, pattern.parameter);
    }
    for (const { validator, parameter } of field.custom) {
      const check = custom[validator];
      if (check) {
        if (!check(text, parameter, context)) add(validator, parameter);
      } else if (options.unknownCustom !== 'skip') add(validator, parameter);
    }
  }
  return violations;
}

/**
 * Read-only fields whose value `after` changes (docs/product/identity-provider.md#roles-and-permissions: HU address). Attributes absent from `after`
 * are not changes; empty and null are the same.
 */
export function changedReadonlyFields(
  rules: CompiledRules,
  before: Readonly<Record<string, unknown>>,
  after: Readonly<Record<string, unknown>>,
): RuleViolation[] {
  return Object.values(rules)
    .filter(
      (f) => f.readonly && f.attribute in after && textOf(after[f.attribute]) !== textOf(before[f.attribute]),
    )
    .map((f) => ({ field: f.attribute, rule: 'readonly', parameter: 'true' }));
}
