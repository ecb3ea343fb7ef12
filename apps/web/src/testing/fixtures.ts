import type { ContentCollection, LoginStatus } from '@roadpass/contracts';

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
