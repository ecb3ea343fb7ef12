import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useForm } from 'react-hook-form';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { securityErrorCodes } from '@roadpass/contracts';
import { HttpError } from '@/lib/http';
import { RuntimeServicesProvider, type RuntimeServices } from '@/lib/runtime-services';
import { createFakeHttpClient } from '@/testing/fake-http-client';
import { useStepUp, useStepUpAction } from './step-up';

interface Values {
  email: string;
  password: string;
  nickname: string;
}

const refusal = (code: string) =>
  new HttpError({
    status: 403,
    config: { url: '/api/x', method: 'PUT' },
    body: { status: 403, code, message: 'x' } as never,
  });

/** A form that saves through `save` and hands every failure to the step-up hook first. */
function Form({ save, onOther }: { save: () => Promise<void>; onOther: (error: unknown) => void }) {
  const form = useForm<Values>({ defaultValues: { email: '', password: '', nickname: '' } });
  const handleStepUp = useStepUp('test-form', form, { exclude: ['nickname'] });
  const onSubmit = form.handleSubmit(async () => {
    try {
      await save();
    } catch (error) {
      if (handleStepUp(error)) return;
      onOther(error);
    }
  });
  return (
    <form onSubmit={(event) => void onSubmit(event)}>
      <label>
        E-mail <input {...form.register('email')} />
      </label>
      <label>
        Password <input type="password" {...form.register('password')} />
      </label>
      <label>
        Nickname <input {...form.register('nickname')} />
      </label>
      <button type="submit">Save</button>
    </form>
  );
}

function renderForm(save: () => Promise<void>, signInAgain: RuntimeServices['signInAgain']) {
  const onOther = vi.fn();
  const services: RuntimeServices = { http: createFakeHttpClient(), config: null, signInAgain };
  const result = render(
    <RuntimeServicesProvider value={services}>
      <Form save={save} onOther={onOther} />
    </RuntimeServicesProvider>,
  );
  return { ...result, onOther };
}

afterEach(() => sessionStorage.clear());

describe('useStepUp', () => {
  it('on recent_sign_in_required keeps the typed input (no password), signs in again, and restores it after', async () => {
    const signInAgain = vi.fn(async () => {});
    const save = vi.fn(async () => {
      throw refusal(securityErrorCodes.recentSignInRequired);
    });
    const first = renderForm(save, signInAgain);
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('E-mail'), 'new@example.com');
    await user.type(screen.getByLabelText('Password'), 'secret-phrase');
    await user.type(screen.getByLabelText('Nickname'), 'Speedy');
    await user.click(screen.getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(signInAgain).toHaveBeenCalledOnce());
    expect(first.onOther).not.toHaveBeenCalled();
    const stored = Object.values({ ...sessionStorage }).join(' ');
    expect(stored).toContain('new@example.com');
    expect(stored).not.toContain('secret-phrase');
    expect(stored).not.toContain('Speedy');

    // Back from the sign-in: a new page load mounts the form again.
    first.unmount();
    renderForm(save, signInAgain);
    expect(screen.getByLabelText('E-mail')).toHaveValue('new@example.com');
    expect(screen.getByLabelText('Password')).toHaveValue('');
    expect(screen.getByLabelText('Nickname')).toHaveValue('');
    expect(sessionStorage.length).toBe(0);
  });

  it('leaves every other error to the form, and keeps nothing', async () => {
    const signInAgain = vi.fn(async () => {});
    const { onOther } = renderForm(async () => {
      throw refusal('forbidden');
    }, signInAgain);
    await userEvent.setup().click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(onOther).toHaveBeenCalledOnce());
    expect(signInAgain).not.toHaveBeenCalled();
    expect(sessionStorage.length).toBe(0);
  });

  it('without a way to sign in again (a webview) leaves the refusal to the form', async () => {
    const { onOther } = renderForm(async () => {
      throw refusal(securityErrorCodes.recentSignInRequired);
    }, null);
    await userEvent.setup().click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(onOther).toHaveBeenCalledOnce());
    expect(sessionStorage.length).toBe(0);
  });
});

/** A button whose change needs a recent sign-in (a passkey added, the data downloaded). */
function Action({ save, onOther }: { save: () => Promise<void>; onOther: (error: unknown) => void }) {
  const stepUp = useStepUpAction();
  return (
    <button
      type="button"
      onClick={() =>
        void save().catch((error: unknown) => {
          if (!stepUp(error)) onOther(error);
        })
      }
    >
      Add
    </button>
  );
}

describe('useStepUpAction', () => {
  const renderAction = (error: unknown, signInAgain: RuntimeServices['signInAgain']) => {
    const onOther = vi.fn();
    const services: RuntimeServices = { http: createFakeHttpClient(), config: null, signInAgain };
    render(
      <RuntimeServicesProvider value={services}>
        <Action save={() => Promise.reject(error)} onOther={onOther} />
      </RuntimeServicesProvider>,
    );
    return onOther;
  };

  it('sends a refusal for an old sign-in through the sign-in, and nothing else', async () => {
    const signInAgain = vi.fn(async () => {});
    const onOther = renderAction(refusal(securityErrorCodes.recentSignInRequired), signInAgain);
    await userEvent.setup().click(screen.getByRole('button', { name: 'Add' }));
    await waitFor(() => expect(signInAgain).toHaveBeenCalledOnce());
    expect(onOther).not.toHaveBeenCalled();

    const other = vi.fn(async () => {});
    const onOtherError = renderAction(refusal('forbidden'), other);
    await userEvent.setup().click(screen.getAllByRole('button', { name: 'Add' })[1]!);
    await waitFor(() => expect(onOtherError).toHaveBeenCalledOnce());
    expect(other).not.toHaveBeenCalled();
  });

  it('in a webview (no way to sign in again) leaves the refusal to the page', async () => {
    const onOther = renderAction(refusal(securityErrorCodes.recentSignInRequired), null);
    await userEvent.setup().click(screen.getByRole('button', { name: 'Add' }));
    await waitFor(() => expect(onOther).toHaveBeenCalledOnce());
  });
});
