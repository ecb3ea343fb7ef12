import { afterEach, describe, expect, it, vi } from 'vitest';
import { resetAppStore, selectShowBannerCancel, selectShowBannerConfirm, useAppStore } from './app-store';

const state = () => useAppStore.getState();

describe('app state', () => {
  afterEach(() => resetAppStore());

  it('starts with the defaults of docs/product/data.md#entities-and-fields', () => {
    expect(state()).toMatchObject({
      token: null,
      appReady: false,
      contentLoaded: false,
      isWebView: false,
      activeLanguage: 'en',
      error: { page: false, overlay: false, banner: false },
      homeLocation: 'DE',
    });
    // The signed-in customer is server data: the login-status query keeps it (lib/session).
    expect(state()).not.toHaveProperty('user');
  });

  describe('error flags', () => {
    it('are set together', () => {
      state().setError(true);
      expect(state().error).toEqual({ page: true, overlay: true, banner: true });
      state().setError(false);
      expect(state().error).toEqual({ page: false, overlay: false, banner: false });
    });

    it('mark the content as loaded when an error is set', () => {
      expect(state().contentLoaded).toBe(false);
      state().setError(true);
      expect(state().contentLoaded).toBe(true);
    });

    it('are flipped by the error toggle', () => {
      state().toggleError();
      expect(state().error).toEqual({ page: true, overlay: true, banner: true });
      expect(state().contentLoaded).toBe(true);
      state().toggleError();
      expect(state().error).toEqual({ page: false, overlay: false, banner: false });
    });

    it('close only the banner when the banner closes', () => {
      state().setError(true);
      state().closeBanner();
      expect(state().error).toEqual({ page: true, overlay: true, banner: false });
    });

    it('are all cleared by clearErrors (navigation to a route without own error handling)', () => {
      state().setError(true, { hideCancel: true }, '5f0c2d9e');
      state().clearErrors();
      expect(state().error).toEqual({ page: false, overlay: false, banner: false });
      expect(state().errorButtons).toEqual({});
      expect(state().errorReference).toBeNull();
    });

    it('keep the reference for support of the error that set them, until they are cleared', () => {
      state().setError(true, {}, '5f0c2d9e');
      expect(state().errorReference).toBe('5f0c2d9e');
      state().setError(true);
      expect(state().errorReference).toBeNull();
      state().setError(true, {}, '5f0c2d9e');
      state().setError(false);
      expect(state().errorReference).toBeNull();
    });
  });

  describe('banner buttons', () => {
    it('hide cancel while the error page shows', () => {
      state().setError(true);
      expect(selectShowBannerCancel(state())).toBe(false);
      expect(selectShowBannerConfirm(state())).toBe(true);
    });

    it('show cancel for a banner without the error page', () => {
      useAppStore.setState({ error: { page: false, overlay: false, banner: true } });
      expect(selectShowBannerCancel(state())).toBe(true);
    });

    it('hide cancel with hideCancel and confirm with hideConfirm', () => {
      useAppStore.setState({
        error: { page: false, overlay: false, banner: true },
        errorButtons: { hideCancel: true, hideConfirm: true },
      });
      expect(selectShowBannerCancel(state())).toBe(false);
      expect(selectShowBannerConfirm(state())).toBe(false);
    });
  });

  it('adds and removes toasts, auto-closing by default', () => {
    const id = state().addToast({ message: 'Saved', type: 'success' });
    expect(state().toasts).toEqual([{ id, message: 'Saved', type: 'success', autoClose: true }]);
    state().removeToast(id);
    expect(state().toasts).toEqual([]);
  });

  it('calls the notify dialog on-close callback when it closes', () => {
    const onClose = vi.fn();
    state().showNotify({ message: 'x', onClose });
    state().closeNotify();
    expect(state().notify).toBeNull();
    expect(onClose).toHaveBeenCalledOnce();
  });
});
