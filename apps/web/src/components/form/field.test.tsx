import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { describe, expect, it } from 'vitest';
import { apiErrorCodes } from '@roadpass/contracts';
import { HttpError } from '@/lib/http';
import { setServerErrors } from '@/lib/forms/server-errors';
import { CheckboxField, Field, FormErrors, SelectField, useErrorFocus } from '.';
import { PasswordField } from './password-field';
import { SwitchField } from './switch-field';
import { TextAreaField } from './text-area-field';

interface Values {
  zip: string;
  country: string;
  terms: boolean;
}

/** A small form as the account pages will build them: rules in the browser, then the server's 400. */
function AddressForm({ serverError }: { serverError: HttpError }) {
  const { register, handleSubmit, setError, formState } = useForm<Values>({
    defaultValues: { zip: '', country: 'DE', terms: false },
    shouldFocusError: false,
  });
  const { containerRef, focusErrors } = useErrorFocus();
  const [formMessages, setFormMessages] = useState<string[]>([]);
  const onValid = () => {
    const { formMessages: rest } = setServerErrors(serverError, setError, {
      fields: ['zip', 'country', 'terms'],
      describe: (violation) => `Server: ${violation.field} (${violation.rule})`,
    });
    setFormMessages(rest);
    focusErrors();
  };
  return (
    <form ref={containerRef} noValidate onSubmit={(event) => void handleSubmit(onValid, focusErrors)(event)}>
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
    await waitFor(() => expect(zip).toHaveFocus());
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
    await waitFor(() => expect(zip).toHaveFocus());
    expect(screen.getByRole('alert')).toHaveTextContent('Server: legalEntityId (match)');
  });

  it('focuses the first rejected field in the order of the page, whatever order the errors came in', async () => {
    const terms = new HttpError({
      status: 400,
      config: { method: 'PUT', url: '/api/x' },
      body: {
        status: 400,
        code: apiErrorCodes.validationFailed,
        message: 'Invalid',
        violations: [
          { field: 'terms', rule: 'required', message: 'x' },
          { field: 'country', rule: 'match', message: 'y' },
        ],
      },
    });
    render(<AddressForm serverError={terms} />);
    await userEvent.type(screen.getByRole('textbox', { name: /Post code/ }), '1234');
    await userEvent.click(screen.getByRole('checkbox', { name: /I accept the terms/ }));
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));

    const country = screen.getByRole('combobox', { name: 'Country' });
    await waitFor(() => expect(country).toHaveFocus());
    expect(country).toHaveAccessibleDescription('Server: country (match)');
    expect(screen.getByRole('checkbox', { name: /I accept the terms/ })).toHaveAttribute(
      'aria-invalid',
      'true',
    );
  });

  it('focuses the error summary when no field is rejected', async () => {
    const other = new HttpError({
      status: 400,
      config: { method: 'PUT', url: '/api/x' },
      body: {
        status: 400,
        code: apiErrorCodes.validationFailed,
        message: 'Invalid',
        violations: [{ field: 'legalEntityId', rule: 'match', message: 'y' }],
      },
    });
    render(<AddressForm serverError={other} />);
    await userEvent.type(screen.getByRole('textbox', { name: /Post code/ }), '1234');
    await userEvent.click(screen.getByRole('checkbox', { name: /I accept the terms/ }));
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.getByRole('alert')).toHaveFocus());
  });

  it('has a text area with its hint and error, and a field can point at an error shown in a summary', () => {
    render(
      <form>
        <TextAreaField
          id="message"
          label="Description"
          hint="What happened?"
          required
          requiredLabel="(required)"
          errorSummaryId="summary"
          textAreaProps={{}}
        />
        <FormErrors id="summary" messages={['Please fill in: Description']} />
      </form>,
    );
    const message = screen.getByRole('textbox', { name: 'Description (required)' });
    expect(message.tagName).toBe('TEXTAREA');
    expect(message).toHaveAttribute('aria-invalid', 'true');
    expect(message).toHaveAccessibleDescription('What happened? Please fill in: Description');
  });

  it('has a switch that keeps the focus and takes no press while busy', async () => {
    const changes: boolean[] = [];
    function Newsletter({ busy }: { busy: boolean }) {
      const [on, setOn] = useState(false);
      return (
        <SwitchField
          id="news"
          label="Newsletter"
          hint="Once a month"
          note="Ends your membership"
          checked={on}
          busy={busy}
          onChange={(next) => {
            changes.push(next);
            setOn(next);
          }}
        />
      );
    }
    const view = render(<Newsletter busy={false} />);
    const toggle = screen.getByRole('switch', { name: 'Newsletter' });
    expect(toggle).toHaveAccessibleDescription('Once a month Ends your membership');
    toggle.focus();
    await userEvent.keyboard(' ');
    expect(toggle).toBeChecked();
    view.rerender(<Newsletter busy />);
    await userEvent.keyboard(' ');
    expect(toggle).toBeChecked();
    expect(toggle).toHaveFocus();
    expect(toggle).toHaveAttribute('aria-disabled', 'true');
    expect(changes).toEqual([true]);
  });

  it('has a password field with a "Show password" button inside it', async () => {
    render(
      <PasswordField
        id="secret"
        label="Password"
        showLabel="Show password"
        hideLabel="Hide password"
        inputProps={{ autoComplete: 'current-password' }}
      />,
    );
    const input = screen.getByLabelText('Password');
    const reveal = screen.getByRole('button', { name: 'Show password' });
    expect(input).toHaveAttribute('type', 'password');
    await userEvent.click(reveal);
    expect(input).toHaveAttribute('type', 'text');
    expect(reveal).toHaveAccessibleName('Hide password');
    expect(reveal).toHaveFocus();
  });
});
