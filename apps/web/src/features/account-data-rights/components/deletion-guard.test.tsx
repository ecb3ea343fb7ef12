import { QueryClient } from '@tanstack/react-query';
import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { apiPaths, type AccountDeletionStatus } from '@roadpass/contracts';
import { createFakeHttpClient } from '@/testing/fake-http-client';
import { demoLoginStatus } from '@/testing/fixtures';
import { renderWithProviders } from '@/testing/render';
import { signInForTests } from '@/testing/session';
import { dataRightsKeys } from '../api/query-keys';
import { DeletionGuard } from './deletion-guard';

const nothingScheduled: AccountDeletionStatus = { blockers: [], deletion: null, graceDays: 30 };

describe('DeletionGuard', () => {
  it('takes the status start-up asked for beside the customer, without asking again', async () => {
    signInForTests(demoLoginStatus.user);
    const get = vi.fn(async (_url: string) => nothingScheduled as never);
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    queryClient.setQueryData(dataRightsKeys.deletion(), nothingScheduled);

    renderWithProviders(
      <DeletionGuard open={false}>
        <p>The page</p>
      </DeletionGuard>,
      { http: createFakeHttpClient({ get }), queryClient },
    );

    expect(await screen.findByText('The page')).toBeVisible();
    expect(get.mock.calls.map(([url]) => url)).not.toContain(apiPaths.accountDeletion);
  });

  it('asks again when start-up’s answer failed (a refused token), showing nothing of the page meanwhile', async () => {
    signInForTests(demoLoginStatus.user);
    let answer!: (status: AccountDeletionStatus) => void;
    const get = vi.fn(
      (_url: string) => new Promise<AccountDeletionStatus>((resolve) => (answer = resolve)) as never,
    );
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    await queryClient
      .prefetchQuery({ queryKey: dataRightsKeys.deletion(), queryFn: () => Promise.reject(new Error('401')) })
      .catch(() => undefined);

    renderWithProviders(
      <DeletionGuard open={false}>
        <p>The page</p>
      </DeletionGuard>,
      { http: createFakeHttpClient({ get }), queryClient },
    );

    await vi.waitFor(() => expect(get).toHaveBeenCalledOnce());
    expect(screen.queryByText('The page')).toBeNull();
    answer({ ...nothingScheduled });
    expect(await screen.findByText('The page')).toBeVisible();
  });

  it('asks itself when start-up has not, and shows nothing of the page until the answer', async () => {
    signInForTests(demoLoginStatus.user);
    let answer!: (status: AccountDeletionStatus) => void;
    const get = vi.fn(
      (_url: string) => new Promise<AccountDeletionStatus>((resolve) => (answer = resolve)) as never,
    );

    renderWithProviders(
      <DeletionGuard open={false}>
        <p>The page</p>
      </DeletionGuard>,
      { http: createFakeHttpClient({ get }) },
    );

    await vi.waitFor(() => expect(get).toHaveBeenCalledOnce());
    expect(get.mock.calls[0]![0]).toBe(apiPaths.accountDeletion);
    expect(screen.queryByText('The page')).toBeNull();
    answer(nothingScheduled);
    expect(await screen.findByText('The page')).toBeVisible();
  });
});
