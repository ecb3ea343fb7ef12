/** The e-mail confirmation's query keys, written once. */
export const emailConfirmKeys = {
  all: ['account', 'email-confirm'] as const,
  confirm: (token: string) => [...emailConfirmKeys.all, token] as const,
};
