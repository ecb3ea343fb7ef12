import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import {
  addressFields,
  apiErrorCodes,
  examplePersonalData,
  apiPaths,
  compileRules,
  type MetaDataList,
  type PersonalDataResponse,
  type PersonalDataRTO,
} from '@roadpass/contracts';
import { HttpError } from '@/lib/http';
import { i18n } from '@/lib/i18n/i18n';
import { createFakeHttpClient } from '@/testing/fake-http-client';
import { renderWithProviders } from '@/testing/render';
import english from '../../../../../../content/translations/en.json';
import content from '../../../../../../content/account-rules/v1.json';
import { profileRules } from './profile-values';
import { ProfilePage } from './profile-page';

// The rules as the server composes them from its content (account-rules-content.ts).
const legalEntities = content.legalEntities as Record<
  string,
  { entity: MetaDataList; address: MetaDataList }
>;
const provinces = content.provinces as Record<string, Record<string, { rules: MetaDataList }>>;
const provinceRules = (country: string, province?: string | null) =>
  (province && provinces[country]?.[province]?.rules) || [];
const entityTable = (country: string): MetaDataList => [
  { attribute: 'language', validator: 'required', parameter: 'true' },
  {
    attribute: 'language',
    validator: 'listMatch',
    parameter: `en_${country}|${country.toLowerCase()}_${country}`,
  },
  ...(country === 'HU'
    ? addressFields.map((attribute) => ({ attribute, validator: 'readonly', parameter: 'true' }))
    : []),
];
const customerMeta = (entity: string, country: string, province?: string | null): MetaDataList => [
  ...legalEntities[entity]!.entity,
  ...legalEntities[country]!.address,
  ...provinceRules(country, province),
  ...entityTable(entity),
];
const countryMeta = (country: string, province?: string) => ({
  meta: {
    metaDataList: [
      ...legalEntities[country]!.entity,
      ...entityTable(country),
      ...legalEntities[country]!.address,
      ...provinceRules(country, province),
    ],
  },
});

const base: PersonalDataRTO = examplePersonalData;
const profiles = {
  DE: base,
  IT: {
    ...base,
    email: 'demo.it@example.com',
    firstName: 'Giulia',
    lastName: 'Rossi',
    language: 'it_IT',
    addressStreet: 'Via Dante 1',
    addressCity: 'Milano',
    addressZipCode: '20121',
    addressCountryIsoCode: 'IT',
    birthDate: '1990-03-15',
    birthPlace: 'Milano',
    fiscalCode: 'RSSGLI90C55F205T',
    phone: '+393331234567',
    mobilePhone: '+393331234568',
  },
  ES: {
    ...base,
    email: 'demo.es@example.com',
    firstName: 'Javier',
    lastName: 'García',
    salutation: 'HERR',
    language: 'es_ES',
    addressStreet: 'Calle de Alcalá 1',
    addressCity: 'Madrid',
    addressZipCode: '28001',
    addressCountryIsoCode: 'ES',
    addressProvinceIsoCode: '28',
    passportId: '12345678Z',
    phone: '+34612345678',
  },
  HU: {
    ...base,
    email: 'demo.hu@example.com',
    firstName: 'Bence',
    lastName: 'Nagy',
    salutation: 'HERR',
    language: 'hu_HU',
    addressStreet: 'Október 6. utca 1',
    addressCity: 'Budapest',
    addressZipCode: '1051',
    addressCountryIsoCode: 'HU',
    phone: '+36301234567',
  },
} satisfies Record<string, PersonalDataRTO>;

type Country = keyof typeof profiles;

const answer = (
  country: Country,
  profile: PersonalDataRTO = profiles[country],
  pendingEmail: string | null = null,
): PersonalDataResponse => ({
  body: { PersonalDataRTO: profile, pendingEmail },
  meta: {
    metaDataList: customerMeta(country, profile.addressCountryIsoCode!, profile.addressProvinceIsoCode),
  },
});

function renderPage(
  country: Country,
  {
    put = vi.fn(async () => answer(country) as never),
    meta = async (url: string) => {
      const [wanted, province] = url.slice(apiPaths.personalDataMeta('').length).split('/');
      return countryMeta(wanted!, province);
    },
    extraRules = [],
  }: {
    put?: ReturnType<typeof vi.fn>;
    meta?: (url: string) => Promise<unknown>;
    extraRules?: MetaDataList;
  } = {},
) {
  const loaded = answer(country);
  loaded.meta.metaDataList.push(...extraRules);
  const get = vi.fn(async (url: string) => (url === apiPaths.personalData ? loaded : meta(url)) as never);
  const http = createFakeHttpClient({ get, put: put as never });
  renderWithProviders(<ProfilePage mobileHref="/XX/en/myaccount/mobile" />, { http });
  return { get, put };
}

const textbox = (name: RegExp) => screen.getByRole('textbox', { name });
const save = () => userEvent.click(screen.getByRole('button', { name: 'Save changes' }));

describe('profile page', () => {
  beforeAll(() => {
    i18n.addResourceBundle('en', 'translation', english, true, true);
  });

  it('shows the fields the rules ask for, marks the required ones, and hides the invisible ones', async () => {
    renderPage('IT');
    const fiscalCode = await screen.findByRole('textbox', { name: /^Fiscal code/ });
    expect(fiscalCode).toHaveValue('RSSGLI90C55F205T');
    expect(screen.getByText(/^Fiscal code/)).toHaveTextContent('Fiscal code (codice fiscale) (required)');
    expect(textbox(/^Place of birth/)).toHaveAttribute('aria-required', 'true');
    expect(textbox(/^Middle name/)).not.toHaveAttribute('aria-required');
    // Italy's rules make the passport number invisible; no rule mentions the student flags.
    expect(screen.queryByRole('textbox', { name: /passport/i })).toBeNull();
    expect(screen.queryByRole('checkbox')).toBeNull();
    // Provinces only where the rules list them.
    expect(screen.queryByRole('combobox', { name: /^Province/ })).toBeNull();

    const salutation = screen.getByRole('combobox', { name: /^Salutation/ });
    expect(
      within(salutation)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Mr', 'Ms']);
    expect(salutation).toHaveValue('FRAU');
    const country = screen.getByRole('combobox', { name: /^Country/ });
    expect(within(country).getAllByRole('option')).toHaveLength(8);
    expect(within(country).getByRole('option', { name: 'Italy' })).toHaveProperty('selected', true);
    expect(screen.getByLabelText(/^Date of birth/)).toHaveAttribute('type', 'date');

    // The mobile number changes only with a PIN, on its own page.
    expect(screen.queryByRole('textbox', { name: /^Mobile number/ })).toBeNull();
    // Numbers grouped as Italians write them, stored and sent in E.164.
    expect(screen.getByText('+39 333 123 4568')).toBeVisible();
    expect(screen.getByRole('textbox', { name: /^Phone/ })).toHaveValue('+39 333 123 4567');
    expect(screen.getByRole('link', { name: 'Change mobile number' })).toHaveAttribute(
      'href',
      '/XX/en/myaccount/mobile',
    );
  });

  it('shows the student choices only when the rules name them', async () => {
    renderPage('DE', {
      extraRules: [
        { attribute: 'student', validator: 'required', parameter: 'false' },
        { attribute: 'fullTimeStudent', validator: 'invisible', parameter: 'true' },
      ],
    });
    expect(await screen.findByRole('checkbox', { name: 'I am a student' })).not.toBeChecked();
    expect(screen.queryByRole('checkbox', { name: 'I study full time' })).toBeNull();
  });

  it('offers the salutations the served rules list, and no other', async () => {
    renderPage('DE', {
      extraRules: [{ attribute: 'salutation', validator: 'listMatch', parameter: 'FRAU|DIVERS' }],
    });
    const salutation = await screen.findByRole('combobox', { name: /^Salutation/ });
    expect(
      within(salutation)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Ms']);
  });

  it("checks a Spanish DNI's check letter in the browser, and sends it in capitals", async () => {
    const { put } = renderPage('ES');
    const id = await screen.findByRole('textbox', { name: /^ID card or passport number/ });
    await userEvent.clear(id);
    await userEvent.type(id, '12345678A');
    await save();
    expect(id).toHaveAccessibleDescription(english['rules-dniNie']);
    expect(put).not.toHaveBeenCalled();

    await userEvent.clear(id);
    await userEvent.type(id, '12345678z');
    await save();
    await waitFor(() => expect(put).toHaveBeenCalledTimes(1));
    expect(put).toHaveBeenCalledWith(apiPaths.personalData, { ...profiles.ES, passportId: '12345678Z' });
  });

  it('shows a read-only address as text with the reason, and sends it unchanged', async () => {
    const { put } = renderPage('HU');
    const firstName = await screen.findByRole('textbox', { name: /^First name/ });
    expect(screen.queryByRole('textbox', { name: /^Street/ })).toBeNull();
    expect(screen.queryByRole('combobox', { name: /^Country/ })).toBeNull();
    const address = screen.getByRole('group', { name: 'Address' });
    expect(within(address).getByText('Október 6. utca 1')).toBeVisible();
    expect(within(address).getByText('Hungary')).toBeVisible();
    expect(within(address).getByText(/cannot be changed online/)).toBeVisible();

    await userEvent.clear(firstName);
    await userEvent.type(firstName, 'Bálint');
    await save();
    await waitFor(() => expect(put).toHaveBeenCalledTimes(1));
    expect(put).toHaveBeenCalledWith(apiPaths.personalData, {
      ...profiles.HU,
      firstName: 'Bálint',
    });
  });

  it('checks in the browser: one served message per field, focus on the first, nothing sent', async () => {
    const { put } = renderPage('IT');
    const fiscalCode = await screen.findByRole('textbox', { name: /^Fiscal code/ });
    await userEvent.clear(fiscalCode);
    // A wrong check character (T is right).
    await userEvent.type(fiscalCode, 'rssgli90c55f205x');
    await userEvent.clear(textbox(/^First name/));
    await userEvent.clear(textbox(/^Post code/));
    await userEvent.type(textbox(/^Post code/), '2012');
    await save();

    expect(fiscalCode).toHaveAccessibleDescription(
      '16 characters, as on your health insurance card (tessera sanitaria). Enter a valid Italian fiscal code (16 characters with its check character).',
    );
    expect(textbox(/^First name/)).toHaveAccessibleDescription('This field is required.');
    expect(textbox(/^First name/)).toHaveFocus();
    // Too short and not five digits: the first broken rule only.
    expect(textbox(/^Post code/)).toHaveAccessibleDescription('Use exactly 5 characters.');
    expect(screen.getAllByText('This field is required.')).toHaveLength(1);
    expect(put).not.toHaveBeenCalled();

    // Fixed, the message goes as the customer types.
    await userEvent.type(textbox(/^First name/), 'Giulia');
    expect(textbox(/^First name/)).not.toHaveAttribute('aria-invalid');
  });

  it("loads another country's rules when the country changes, and waits for them before saving", async () => {
    let release: () => void = () => {};
    const meta = vi.fn(
      (url: string) =>
        new Promise((resolve) => {
          release = () => resolve(countryMeta(url.endsWith('/NL') ? 'NL' : 'DE'));
        }),
    );
    const { put } = renderPage('DE', { meta });
    const country = await screen.findByRole('combobox', { name: /^Country/ });
    await userEvent.selectOptions(country, 'NL');

    expect(meta).toHaveBeenCalledWith(apiPaths.personalDataMeta('NL'));
    expect(screen.getByText('Loading the address rules of this country…')).toBeVisible();
    expect(screen.getByRole('button', { name: 'Save changes' })).toBeDisabled();

    release();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Save changes' })).toBeEnabled());
    await save();
    // The Dutch post code rules now apply to the German one.
    expect(textbox(/^Post code/)).toHaveAccessibleDescription('Use 6 to 7 characters.');
    expect(put).not.toHaveBeenCalled();

    await userEvent.clear(textbox(/^Post code/));
    await userEvent.type(textbox(/^Post code/), '1012 ab');
    await userEvent.clear(textbox(/^Phone/));
    await userEvent.type(textbox(/^Phone/), '+49 151 2345 6789');
    await save();
    await waitFor(() => expect(put).toHaveBeenCalledTimes(1));
    expect(put).toHaveBeenCalledWith(
      apiPaths.personalData,
      expect.objectContaining({
        addressCountryIsoCode: 'NL',
        addressZipCode: '1012 AB',
        phone: '+4915123456789',
        language: 'de_DE',
      }),
    );
  });

  it("checks a Spanish post code with the chosen province's rules, again when the province changes", async () => {
    const { get, put } = renderPage('ES');
    const province = await screen.findByRole('combobox', { name: /^Province/ });
    await waitFor(() => expect(within(province).getByRole('option', { name: 'Madrid' })).toBeInTheDocument());
    expect(province).toHaveValue('28');
    await userEvent.clear(textbox(/^Post code/));
    await userEvent.type(textbox(/^Post code/), '08001');
    await save();
    expect(textbox(/^Post code/)).toHaveAccessibleDescription(
      'The post code must start with 28, the code of the province.',
    );

    // Barcelona's rules arrive and the form checks again with them.
    await userEvent.selectOptions(province, 'Barcelona');
    expect(get).toHaveBeenCalledWith(apiPaths.personalDataMeta('ES', '08'));
    await waitFor(() => expect(textbox(/^Post code/)).not.toHaveAttribute('aria-invalid'));
    await userEvent.clear(textbox(/^Post code/));
    await userEvent.type(textbox(/^Post code/), '28001');
    expect(textbox(/^Post code/)).toHaveAccessibleDescription(
      'The post code must start with 08, the code of the province.',
    );
    expect(put).not.toHaveBeenCalled();
  });

  it("puts the server's violations back on their fields, focuses the first on the page, and the summary when saving fails otherwise", async () => {
    const put = vi
      .fn()
      .mockRejectedValueOnce(
        new HttpError({
          status: 400,
          config: { url: apiPaths.personalData, method: 'PUT' },
          body: {
            status: 400,
            code: apiErrorCodes.validationFailed,
            message: 'Some fields do not meet the rules',
            violations: [
              {
                field: 'addressZipCode',
                rule: 'pattern',
                message: 'Dieser Wert hat nicht das erwartete Format.',
              },
              { field: 'lastName', rule: 'required', message: 'Pflichtfeld.' },
              {
                field: 'mobilePhone',
                rule: 'readonly',
                message: 'Dieses Feld kann hier nicht geändert werden.',
              },
            ],
          },
        }),
      )
      .mockRejectedValueOnce(
        new HttpError({
          status: 503,
          config: { url: apiPaths.personalData, method: 'PUT' },
          body: { status: 503, code: apiErrorCodes.internal, message: 'Down' },
        }),
      );
    renderPage('DE', { put });
    await screen.findByRole('textbox', { name: /^Post code/ });
    await save();

    const zip = textbox(/^Post code/);
    await waitFor(() =>
      expect(zip).toHaveAccessibleDescription('This value does not have the expected format.'),
    );
    // The server listed the post code first; the last name comes first on the page.
    const lastName = textbox(/^Last name/);
    expect(lastName).toHaveAttribute('aria-invalid', 'true');
    await waitFor(() => expect(lastName).toHaveFocus());
    expect(screen.getByRole('alert')).toHaveTextContent('Mobile number: This field cannot be changed here.');

    await save();
    await waitFor(() =>
      expect(screen.getByRole('alert')).toHaveTextContent(
        'Your changes could not be saved. Please try again.',
      ),
    );
    await waitFor(() => expect(screen.getByRole('alert')).toHaveFocus());
  });

  it('says that a new e-mail address waits for its link, and shows it until confirmed', async () => {
    const put = vi.fn(async () => answer('DE', profiles.DE, 'dora.new@example.com'));
    renderPage('DE', { put });
    const email = await screen.findByRole('textbox', { name: /^E-mail/ });
    await userEvent.clear(email);
    await userEvent.type(email, 'dora.new@example.com');
    await save();

    await waitFor(() =>
      expect(screen.getByRole('status')).toHaveTextContent(
        'Your personal data has been saved. We sent a confirmation link to dora.new@example.com. Your new e-mail address applies once you open it.',
      ),
    );
    expect(put).toHaveBeenCalledWith(apiPaths.personalData, {
      ...profiles.DE,
      email: 'dora.new@example.com',
    });
    // The account keeps its address until the link is opened.
    expect(email).toHaveValue('demo.de@example.com');
    expect(email).toHaveAccessibleDescription(
      'Waiting for confirmation: dora.new@example.com. Until then we keep using your current address.',
    );
  });

  // Issue 17: one red sentence without Retry that blamed the connection for a server error.
  it('says a server error is ours, offers Retry, and shows the profile once it loads', async () => {
    let fail = true;
    const get = vi.fn(async (url: string) => {
      if (fail)
        throw new HttpError({
          status: 500,
          config: { url },
          headers: new Headers({ 'x-request-id': '5f0c2d9e-8b1a-4c3d-9e2f-1a2b3c4d5e6f' }),
        });
      return (url === apiPaths.personalData ? answer('DE') : countryMeta('DE')) as never;
    });
    const http = createFakeHttpClient({ get: get as never });
    renderWithProviders(<ProfilePage mobileHref="/DE/en/myaccount/mobile" />, { http });
    expect(screen.getByRole('status', { name: 'Loading' })).toBeInTheDocument();
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(english['load-error-server']);
    expect(alert).not.toHaveTextContent(/connection/i);
    // The failed request's reference, for support (docs/product/states.md#a-reference-for-support).
    expect(alert).toHaveTextContent(`${english['error-reference-label']} 5f0c2d9e`);
    expect(within(alert).getByRole('img', { name: 'Something went wrong' })).toBeInTheDocument();
    fail = false;
    await userEvent.click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('textbox', { name: /^First name/ })).toHaveValue(
      answer('DE').body.PersonalDataRTO.firstName,
    );
  });

  it('says the connection is missing when no answer came', async () => {
    const get = vi.fn(async (url: string) => {
      throw new HttpError({ status: 0, config: { url } });
    });
    renderWithProviders(<ProfilePage mobileHref="/DE/en/myaccount/mobile" />, {
      http: createFakeHttpClient({ get: get as never }),
    });
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(english['load-error-offline']);
    expect(alert).not.toHaveTextContent(english['error-reference-label']!);
  });
});

describe('profile rules', () => {
  it.each([
    ['DE', 'NL', undefined],
    ['DE', 'ES', '08'],
    ['ES', 'IT', undefined],
    ['HU', 'AT', undefined],
    ['IT', 'ES', undefined],
  ] as const)(
    "a %s customer's rules with a country's answer for %s %s are the server's for that address",
    (entity, country, province) => {
      const fromCountry = profileRules(
        customerMeta(entity, entity),
        countryMeta(country, province).meta.metaDataList,
      );
      expect(fromCountry).toEqual(compileRules(customerMeta(entity, country, province)));
    },
  );
});
