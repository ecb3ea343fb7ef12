import { describe, expect, it } from 'vitest';
import { createNavigationDirectionTracker, type HistoryLike } from './navigation-direction';

/** A history stack like the browser's: push, replace, go back and forward, reload. */
function fakeHistory() {
  const entries: unknown[] = [null];
  let index = 0;
  const history: HistoryLike = {
    get state() {
      return entries[index];
    },
    replaceState(data) {
      entries[index] = structuredClone(data);
    },
  };
  return {
    history,
    push(state: unknown = null) {
      entries.splice(index + 1, Infinity, state);
      index += 1;
    },
    replace(state: unknown = null) {
      entries[index] = state;
    },
    go(delta: number) {
      index += delta;
    },
  };
}

describe('navigation direction', () => {
  it('calls the first page neither forward nor backward', () => {
    const browser = fakeHistory();
    expect(createNavigationDirectionTracker(browser.history).next()).toBeNull();
  });

  it('tells pushes and forward buttons from back buttons', () => {
    const browser = fakeHistory();
    const tracker = createNavigationDirectionTracker(browser.history);
    tracker.next();

    browser.push();
    expect(tracker.next()).toBe('forward');
    browser.push();
    expect(tracker.next()).toBe('forward');
    browser.go(-1);
    expect(tracker.next()).toBe('backward');
    browser.go(-1);
    expect(tracker.next()).toBe('backward');
    browser.go(2);
    expect(tracker.next()).toBe('forward');
  });

  it('treats a redirect that replaces the entry as forward, and going back from it as backward', () => {
    const browser = fakeHistory();
    const tracker = createNavigationDirectionTracker(browser.history);
    tracker.next();
    browser.push();
    tracker.next();

    browser.replace();
    expect(tracker.next()).toBe('forward');
    browser.go(-1);
    expect(tracker.next()).toBe('backward');
  });

  it('ignores a second look at the same entry (React runs effects twice in development)', () => {
    const browser = fakeHistory();
    const tracker = createNavigationDirectionTracker(browser.history);
    tracker.next();
    expect(tracker.next()).toBeNull();
    browser.push();
    expect(tracker.next()).toBe('forward');
    expect(tracker.next()).toBeNull();
  });

  it('remembers positions across a reload', () => {
    const browser = fakeHistory();
    const beforeReload = createNavigationDirectionTracker(browser.history);
    beforeReload.next();
    browser.push();
    beforeReload.next();
    browser.push();
    beforeReload.next();

    const afterReload = createNavigationDirectionTracker(browser.history);
    expect(afterReload.next()).toBeNull();
    browser.go(-1);
    expect(afterReload.next()).toBe('backward');
  });

  it('keeps the state the router stored on the entry', () => {
    const browser = fakeHistory();
    const tracker = createNavigationDirectionTracker(browser.history);
    tracker.next();
    browser.push({ from: 'status' });
    tracker.next();

    expect(browser.history.state).toMatchObject({ from: 'status' });
  });
});
