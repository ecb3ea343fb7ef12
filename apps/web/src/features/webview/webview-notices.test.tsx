import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor } from '@testing-library/react';
import { onlineManager, QueryClient } from '@tanstack/react-query';
import { loyaltyKeys } from '@/lib/loyalty/api/query-keys';
import { renderWithProviders } from '@/testing/render';
import { WebViewNotices } from './webview-notices';

/** A query cache holding one query whose last call failed (a start-up call refused, say). */
const failed = loyaltyKeys.tierDetails('c');
async function clientWithAFailedQuery(queryFn: () => Promise<string>) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  await queryClient.prefetchQuery({ queryKey: failed, queryFn });
  expect(queryClient.getQueryState(failed)?.status).toBe('error');
  return queryClient;
}

describe('WebViewNotices', () => {
  afterEach(() => onlineManager.setOnline(true));

  it('refetches failed calls when the network returns, not as it mounts', async () => {
    const queryFn = vi.fn().mockRejectedValueOnce(new Error('refused')).mockResolvedValue('back');
    const queryClient = await clientWithAFailedQuery(queryFn);

    renderWithProviders(<WebViewNotices />, { queryClient });
    // Mounting asks nothing again: in the webview a refused start-up call, asked again, made its 401
    // ask a host that had just refused the token once more.
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(queryFn).toHaveBeenCalledOnce();

    act(() => onlineManager.setOnline(false));
    expect(screen.getByRole('status')).toHaveTextContent('webview-offline-title');
    act(() => onlineManager.setOnline(true));
    await waitFor(() => expect(queryClient.getQueryData(failed)).toBe('back'));
    expect(queryFn).toHaveBeenCalledTimes(2);
    expect(screen.queryByText('webview-offline-title')).toBeNull();
  });
});
