import { describe, expect, it } from 'vitest';
import {
  checkValues,
  compileRules,
  listedValues,
  parseRangeLength,
  rangeLengthMessage,
} from './account-rules.js';

const messageOf = (parameter: string) => rangeLengthMessage(parseRangeLength(parameter));

describe('rangelength messages', () => {
  it('a fixed length reads "exactly", counted', () => {
    expect(messageOf('5:5')).toEqual({
      key: 'rules-rangelength-exact',
      values: { min: 5, max: 5, count: 5 },
    });
    expect(messageOf('1:1')).toEqual({
      key: 'rules-rangelength-exact',
      values: { min: 1, max: 1, count: 1 },
    });
  });

  it('a range that only a too long value can break reads "at most", counted (min 0 or 1)', () => {
    expect(messageOf('0:40')).toEqual({
      key: 'rules-rangelength-max',
      values: { min: 0, max: 40, count: 40 },
    });
    expect(messageOf('1:40')).toEqual({
      key: 'rules-rangelength-max',
      values: { min: 1, max: 40, count: 40 },
    });
    expect(messageOf('0:1')).toEqual({ key: 'rules-rangelength-max', values: { min: 0, max: 1, count: 1 } });
  });

  it('any other range reads "min to max"', () => {
    expect(messageOf('2:40')).toEqual({ key: 'rules-rangelength', values: { min: 2, max: 40 } });
    expect(messageOf('10:128')).toEqual({ key: 'rules-rangelength', values: { min: 10, max: 128 } });
  });

  it('reads the parameter a violation carries, with the defaults where it is unreadable', () => {
    const rules = compileRules([{ attribute: 'zip', validator: 'rangelength', parameter: '5:5' }]);
    const [violation] = checkValues(rules, { zip: '1234' });
    expect(violation).toEqual({ field: 'zip', rule: 'rangelength', parameter: '5:5' });
    expect(parseRangeLength(violation!.parameter)).toEqual({ min: 5, max: 5 });
    expect(parseRangeLength('x:')).toEqual({ min: 0, max: 255 });
  });

  it('an empty value breaks only required, so a minimum of 1 is never what a customer misses', () => {
    const rules = compileRules([{ attribute: 'city', validator: 'rangelength', parameter: '1:40' }]);
    expect(checkValues(rules, { city: '' })).toEqual([]);
    expect(checkValues(rules, { city: 'x'.repeat(41) })).toEqual([
      { field: 'city', rule: 'rangelength', parameter: '1:40' },
    ]);
  });
});

describe('listed values (the salutations a form offers)', () => {
  const rules = compileRules([
    { attribute: 'salutation', validator: 'required', parameter: 'true' },
    { attribute: 'salutation', validator: 'listMatch', parameter: 'FRAU|HERR|DIVERS' },
    { attribute: 'fiscalCode', validator: 'listMatch', parameter: 'A|B' },
    { attribute: 'fiscalCode', validator: 'invisible', parameter: 'true' },
  ]);
  it('are the served list, in its order, and the interpreter takes exactly these', () => {
    expect(listedValues(rules.salutation)).toEqual(['FRAU', 'HERR', 'DIVERS']);
    const check = (salutation: string) => checkValues(rules, { salutation }).map((v) => v.rule);
    expect(['FRAU', 'HERR', 'DIVERS'].map(check)).toEqual([[], [], []]);
    expect(check('MX')).toEqual(['listMatch']);
    expect(check('herr')).toEqual(['listMatch']);
    expect(check('')).toEqual(['required']);
  });

  it('are those every list of the field names (each list is a rule the value must pass)', () => {
    const narrowed = compileRules([
      { attribute: 'salutation', validator: 'listMatch', parameter: 'HERR|FRAU|DIVERS' },
      { attribute: 'salutation', validator: 'listMatch', parameter: 'DIVERS|FRAU' },
    ]);
    expect(listedValues(narrowed.salutation)).toEqual(['FRAU', 'DIVERS']);
    expect(checkValues(narrowed, { salutation: 'HERR' }).map((v) => v.rule)).toEqual(['listMatch']);
  });

  it('are none for a field without a list or an invisible one', () => {
    expect(listedValues(rules.fiscalCode)).toEqual([]);
    expect(listedValues(rules.firstName)).toEqual([]);
  });
});
