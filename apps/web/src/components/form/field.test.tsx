import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { describe, expect, it } from 'vitest';
import { apiErrorCodes } from '@roadpass/contracts';
import { HttpError } from '@/lib/http';
import { setServerErrors } from '@/lib/forms/server-errors';
import { CheckboxField, Field, FormErrors, SelectField } from '.';

interface Values {
  zip: string;
  country: string;
  terms: boolean;
}

/** A small form as the account pages will build them: rules in the browser, then the server's 400. */
function AddressForm({ serverError }: { serverError: HttpError }) {
  const { register, handleSubmit, setError, formState } = useForm<Values>({
    defaultValues: { zip: '', country: 'DE', terms: false },
  });
  const [formMessages, setFormMessages] = useState<string[]>([]);
  const onValid = () => {
    const { formMessages: rest } = setServerErrors(serverError, setError, {
      fields: ['zip', 'country', 'terms'],
      describe: (violation) => `Server: ${violation.field} (${violation.rule})`,
    });
    setFormMessages(rest);
  };
  return (
    <form noValidate onSubmit={(event) => void handleSubmit(onValid)(event)}>
      <Field
        id="zip"
        label="Post code"
        hint="Five digits"
        required
        requiredLabel="(required)"
        error={formState.errors.zip?.message}
        inputProps={register('zip', { required: 'Enter your post code' })}
      />
      <SelectField
        id="country"
        label="Country"
        options={[
          { value: 'DE', label: 'Germany' },
          { value: 'AT', label: 'Austria' },
        ]}
        error={formState.errors.country?.message}
        selectProps={register('country')}
      />
      <CheckboxField
        id="terms"
        label="I accept the terms"
        hint="You can withdraw at any time."
        required
        error={formState.errors.terms?.message}
        inputProps={register('terms', { required: 'Accept the terms to continue' })}
      />
      <FormErrors messages={formMessages} />
      <button type="submit">Save</button>
    </form>
  );
}

const serverError = new HttpError({
  status: 400,
  config: { method: 'PUT', url: '/api/x' },
  body: {
    status: 400,
    code: apiErrorCodes.validationFailed,
    message: 'Invalid',
    violations: [
      { field: 'zip', rule: 'pattern', message: 'x' },
      { field: 'zip', rule: 'pattern', message: 'again' },
      { field: 'legalEntityId', rule: 'match', message: 'y' },
    ],
  },
});

describe('form fields', () => {
  it('wires label, hint and error to the control once, and marks it invalid only with an error', async () => {
    render(<AddressForm serverError={serverError} />);
    const zip = screen.getByRole('textbox', { name: /Post code/ });
    expect(zip).not.toHaveAttribute('aria-invalid');
    expect(zip).toHaveAccessibleDescription('Five digits');
    expect(zip).toHaveAttribute('aria-required', 'true');
    expect(screen.getByText('(required)')).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Save' }));

    expect(zip).toHaveAttribute('aria-invalid', 'true');
    expect(zip).toHaveAccessibleDescription('Five digits Enter your post code');
    expect(zip).toHaveFocus();
    const terms = screen.getByRole('checkbox', { name: /I accept the terms/ });
    expect(terms).toHaveAccessibleDescription('You can withdraw at any time. Accept the terms to continue');
    expect(screen.getByRole('combobox', { name: 'Country' })).not.toHaveAttribute('aria-invalid');
  });

  it("puts a server's violations on their fields, each message once, and the rest above the button", async () => {
    render(<AddressForm serverError={serverError} />);
    await userEvent.type(screen.getByRole('textbox', { name: /Post code/ }), '1234');
    await userEvent.click(screen.getByRole('checkbox', { name: /I accept the terms/ }));

    await userEvent.click(screen.getByRole('button', { name: 'Save' }));

    const zip = screen.getByRole('textbox', { name: /Post code/ });
    expect(zip).toHaveAttribute('aria-invalid', 'true');
    expect(zip).toHaveAccessibleDescription('Five digits Server: zip (pattern)');
    expect(zip).toHaveFocus();
    expect(screen.getByRole('alert')).toHaveTextContent('Server: legalEntityId (match)');
  });
});
