import { WebStorageStateStore, type StateStore } from 'oidc-client-ts';
import { storageKeys, writeItem } from '@/lib/storage/storage';

/**
 * The OIDC user store: oidc-client-ts keeps its user (tokens, expiry, profile) in sessionStorage as
 * usual, and every write is mirrored to the two keys of docs/product/data.md#entities-and-fields, `roadpass.token` and
 * `roadpass.refreshToken`, so they never disagree with what the library uses. Removing the user
 * removes both keys.
 */
export class MirroredUserStore implements StateStore {
  private readonly inner: WebStorageStateStore;

  constructor(private readonly storage: Storage = sessionStorage) {
    this.inner = new WebStorageStateStore({ store: storage });
  }

  async set(key: string, value: string): Promise<void> {
    await this.inner.set(key, value);
    if (!key.startsWith('user:')) return;
    let tokens: { access_token?: unknown; refresh_token?: unknown } = {};
    try {
      tokens = JSON.parse(value) as typeof tokens;
    } catch {
      // Not a user record: mirror nothing.
    }
    writeItem(
      this.storage,
      storageKeys.token,
      typeof tokens.access_token === 'string' ? tokens.access_token : null,
    );
    writeItem(
      this.storage,
      storageKeys.refreshToken,
      typeof tokens.refresh_token === 'string' ? tokens.refresh_token : null,
    );
  }

  get(key: string): Promise<string | null> {
    return this.inner.get(key);
  }

  async remove(key: string): Promise<string | null> {
    const removed = await this.inner.remove(key);
    if (key.startsWith('user:')) {
      writeItem(this.storage, storageKeys.token, null);
      writeItem(this.storage, storageKeys.refreshToken, null);
    }
    return removed;
  }

  getAllKeys(): Promise<string[]> {
    return this.inner.getAllKeys();
  }
}
