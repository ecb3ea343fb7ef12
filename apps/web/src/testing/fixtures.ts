import type { ContentCollection, LoginStatus, PasswordResponse } from '@roadpass/contracts';

export const demoLoginStatus: LoginStatus = {
  legalEntityId: 10,
  user: {
    uuid: '0b9f7f5e-3c1e-4a57-9d0f-2d3f1c6a8b11',
    language: 'de_DE',
    legalEntityId: 10,
    legalEntityIso: 'DE',
    email: 'demo.de@example.com',
    firstName: 'Dora',
    lastName: 'Demo',
    salutation: 'FRAU',
  },
};

export function contentCollection(
  language: string,
  country: string,
  texts: Record<string, string>,
): ContentCollection {
  return { collection: 'loyalty-program', locale: `${language}-${country}`, language, texts };
}

/** The password policy the server serves (GET password): what both password form tests render. */
export const passwordPolicy: PasswordResponse = {
  body: { PasswordRTO: { password: null, passwordOld: null } },
  meta: {
    metaDataList: [
      { attribute: 'passwordOld', validator: 'required', parameter: 'true' },
      { attribute: 'password', validator: 'required', parameter: 'true' },
      { attribute: 'password', validator: 'rangelength', parameter: '10:128' },
      { attribute: 'password', validator: 'notCommon', parameter: 'true' },
      { attribute: 'password', validator: 'differsFrom', parameter: 'passwordOld' },
    ],
  },
};
