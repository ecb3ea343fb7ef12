import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import Type from 'typebox';
import { Value } from 'typebox/value';
import {
  addressFields,
  compileRules,
  countryCodes,
  customValidators,
  legalEntities,
  legalEntityByCountry,
  listedValues,
  MetaDataEntry,
  SALUTATION_MAX_LENGTH,
  type MetaDataList,
} from '@roadpass/contracts';

/*
 * The account rules of docs/product/account-rules.md#validation-rules as versioned content (content/account-rules/v{N}.json, the highest N
 * wins): one definition per legal entity and the Spanish province rules. Checked at start: every
 * legal entity defined, every validator known, every pattern a valid regular expression, the
 * province list rule naming exactly the provinces defined.
 */

const RuleList = Type.Array(MetaDataEntry);
const AccountRulesFile = Type.Object({
  version: Type.Integer({ minimum: 1 }),
  description: Type.Optional(Type.String()),
  legalEntities: Type.Record(Type.String(), Type.Object({ entity: RuleList, address: RuleList })),
  provinces: Type.Record(
    Type.String(),
    Type.Record(Type.String(), Type.Object({ name: Type.String(), rules: RuleList })),
  ),
  password: RuleList,
  /** The mobile number and its PIN (the mobile call's form, docs/product/account-rules.md#validation-rules). */
  mobile: RuleList,
});
type AccountRulesFile = Type.Static<typeof AccountRulesFile>;

const builtInValidators = new Set([
  'required',
  'pattern',
  'phone',
  'email',
  'listMatch',
  'rangelength',
  'invisible',
  'readonly',
]);

export interface AccountRules {
  version: number;
  /** Rules of a country's legal entity and of an address in that country (and province), or undefined for a country that is not ours. */
  countryMeta(country: string, province?: string): MetaDataList | undefined;
  /** A customer's rules: their legal entity's, the address country's (their entity's when none), its province's. */
  customerMeta(entityCountry: string, addressCountry: string | null, province: string | null): MetaDataList;
  passwordMeta: MetaDataList;
  /** mobilePhone and pin; `differsFrom currentMobilePhone` is checked against the number on the account. */
  mobileMeta: MetaDataList;
}

const isOurs = (country: string) => (countryCodes as readonly string[]).includes(country);

/** Rules the legal entity table decides: the languages offered, HU's read-only address. */
function entityTableRules(country: string): MetaDataList {
  const entity = legalEntityByCountry(country);
  if (!entity) return [];
  const rules: MetaDataList = [
    { attribute: 'language', validator: 'required', parameter: 'true' },
    {
      attribute: 'language',
      validator: 'listMatch',
      parameter: entity.languages.map((l) => `${l}_${entity.isoCountry}`).join('|'),
    },
  ];
  if (entity.isAddressEditingDisabled)
    for (const attribute of addressFields)
      rules.push({ attribute, validator: 'readonly', parameter: 'true' });
  return rules;
}

export function accountRulesOf(file: AccountRulesFile): AccountRules {
  const problems: string[] = [];
  for (const { isoCountry } of legalEntities)
    if (!file.legalEntities[isoCountry]) problems.push(`legalEntities.${isoCountry} is missing`);
  const check = (where: string, list: MetaDataList) =>
    list.forEach((rule, i) => {
      const at = `${where}[${i}] (${rule.attribute} ${rule.validator})`;
      if (!builtInValidators.has(rule.validator) && !customValidators[rule.validator])
        problems.push(`${at}: unknown validator`);
      if (['pattern', 'phone', 'email'].includes(rule.validator) && rule.parameter !== 'true') {
        try {
          new RegExp(rule.parameter, 'u');
        } catch {
          problems.push(`${at}: not a regular expression`);
        }
      }
    });
  for (const [country, def] of Object.entries(file.legalEntities)) {
    if (!isOurs(country)) problems.push(`legalEntities.${country} is not one of our legal entities`);
    check(`legalEntities.${country}.entity`, def.entity);
    // The salutations come from here alone: each must fit the API's field and the column.
    const salutations = listedValues(compileRules(def.entity).salutation);
    if (salutations.length === 0) problems.push(`legalEntities.${country}.entity: no salutation listMatch`);
    for (const salutation of salutations)
      if (salutation === '' || salutation.length > SALUTATION_MAX_LENGTH)
        problems.push(
          `legalEntities.${country}.entity: salutation "${salutation}" is not 1 to ${SALUTATION_MAX_LENGTH} characters`,
        );
    check(`legalEntities.${country}.address`, def.address);
  }
  for (const [country, provinces] of Object.entries(file.provinces)) {
    const listed = compileRules(file.legalEntities[country]?.address ?? []).addressProvinceIsoCode;
    const names = listed?.patterns.find((p) => p.validator === 'listMatch')?.parameter.split('|') ?? [];
    if (names.sort().join() !== Object.keys(provinces).sort().join())
      problems.push(
        `provinces.${country}: the addressProvinceIsoCode listMatch must name exactly these provinces`,
      );
    for (const [code, province] of Object.entries(provinces))
      check(`provinces.${country}.${code}`, province.rules);
  }
  check('password', file.password);
  check('mobile', file.mobile);
  if (problems.length) throw new Error(`Account rules v${file.version}: ${problems.join('; ')}`);

  const provinceRules = (country: string, province: string | null | undefined) =>
    province ? file.provinces[country]?.[province]?.rules : undefined;

  return {
    version: file.version,
    countryMeta(country, province) {
      const def = file.legalEntities[country];
      if (!def || !isOurs(country)) return undefined;
      if (province !== undefined && !provinceRules(country, province)) return undefined;
      return [
        ...def.entity,
        ...entityTableRules(country),
        ...def.address,
        ...(provinceRules(country, province) ?? []),
      ];
    },
    customerMeta(entityCountry, addressCountry, province) {
      const own = file.legalEntities[entityCountry]!;
      const country = addressCountry && file.legalEntities[addressCountry] ? addressCountry : entityCountry;
      return [
        ...own.entity,
        ...file.legalEntities[country]!.address,
        ...(provinceRules(country, province) ?? []),
        // Last, so the legal entity's read-only address wins over any address rule.
        ...entityTableRules(entityCountry),
      ];
    },
    passwordMeta: file.password,
    mobileMeta: file.mobile,
  };
}

/** Loads the newest version file of content/account-rules; throws with every problem found. */
export async function loadAccountRules(contentDir: string): Promise<AccountRules> {
  const dir = path.join(contentDir, 'account-rules');
  const versions = (await readdir(dir))
    .map((name) => /^v([0-9]+)\.json$/.exec(name))
    .filter((m): m is RegExpExecArray => m !== null)
    .sort((a, b) => Number(b[1]) - Number(a[1]));
  if (!versions[0]) throw new Error(`No account rules (v{N}.json) in ${dir}`);
  const file = path.join(dir, versions[0][0]);
  const data: unknown = JSON.parse(await readFile(file, 'utf8'));
  if (!Value.Check(AccountRulesFile, data)) {
    const first = [...Value.Errors(AccountRulesFile, data)][0];
    throw new Error(`${file}: ${first ? `${first.instancePath} ${first.message}` : 'invalid'}`);
  }
  if (data.version !== Number(versions[0][1])) throw new Error(`${file}: version must be ${versions[0][1]}`);
  return accountRulesOf(data);
}
