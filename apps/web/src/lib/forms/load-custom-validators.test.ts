import { describe, expect, it, vi } from 'vitest';
import { compileRules } from '@roadpass/contracts';
import { customValidatorsFor, loadCustomValidators, namesCustomValidators } from './load-custom-validators';

// The chunk cannot be loaded the first time (a lost connection, a new deployment's file names): the
// loader says so, and loads it on the next call.
const chunk = vi.hoisted(() => ({ loads: 0 }));
vi.mock('./custom-validators', async (importOriginal) => {
  chunk.loads += 1;
  if (chunk.loads === 1) throw new Error('Failed to fetch dynamically imported module');
  return importOriginal();
});

const passwordRules = compileRules([
  { attribute: 'password', validator: 'rangelength', parameter: '10:128' },
  { attribute: 'password', validator: 'notCommon', parameter: 'true' },
]);
const mobileRules = compileRules([
  { attribute: 'mobilePhone', validator: 'required', parameter: 'true' },
  { attribute: 'mobilePhone', validator: 'phone', parameter: 'true' },
]);

describe('the custom validators loader', () => {
  it('needs no chunk for rules that name no validator of our own', async () => {
    expect(namesCustomValidators(mobileRules)).toBe(false);
    expect(namesCustomValidators(passwordRules)).toBe(true);
    expect(await customValidatorsFor(mobileRules)).toEqual({});
    expect(chunk.loads).toBe(0);
  });

  it('answers undefined when the chunk cannot come (the server checks), and loads it on the next try', async () => {
    expect(await customValidatorsFor(passwordRules)).toBeUndefined();
    const validators = await customValidatorsFor(passwordRules);
    expect(validators?.notCommon?.('password123', 'true', { today: new Date(), values: {} })).toBe(false);
    expect(await loadCustomValidators()).toBe(validators);
    expect(chunk.loads).toBe(2);
  });
});
