import { Component, lazy, Suspense, type ComponentType, type ReactNode } from 'react';
import { isChunkLoadError } from '@/lib/errors/report-error';

interface PartState {
  /** The part's code could not be downloaded (offline, or a deployment replaced the files). */
  unavailable: boolean;
  /** Any other error: not this boundary's to hide, it goes on to the shell's. */
  error?: unknown;
}

/**
 * A part of the frame loaded on demand beside the page (the consent manager, the feedback widget, the
 * webview's notices). When its code cannot be downloaded — the connection is gone while the browser
 * idles, say — the part is left out instead of taking the whole app down with it (the shell's error
 * page: docs/product/states.md#states-and-transitions), and it is fetched again when the connection
 * returns. An error of the part itself still reaches the shell's error boundary.
 */
export function optionalPart<P extends object>(
  load: () => Promise<{ default: ComponentType<P> }>,
): ComponentType<P> {
  // React.lazy keeps a failed download for ever: a new one for each try.
  let Lazy = lazy(load);

  return class OptionalPart extends Component<P, PartState> {
    override state: PartState = { unavailable: false };

    static getDerivedStateFromError(error: unknown): PartState {
      return isChunkLoadError(error) ? { unavailable: true } : { unavailable: false, error };
    }

    override componentDidCatch(error: unknown): void {
      if (!isChunkLoadError(error)) return;
      Lazy = lazy(load);
      window.addEventListener('online', this.retry, { once: true });
    }

    override componentWillUnmount(): void {
      window.removeEventListener('online', this.retry);
    }

    private readonly retry = () => this.setState({ unavailable: false });

    override render(): ReactNode {
      if (this.state.error !== undefined) throw this.state.error;
      if (this.state.unavailable) return null;
      return (
        <Suspense fallback={null}>
          <Lazy {...this.props} />
        </Suspense>
      );
    }
  };
}
