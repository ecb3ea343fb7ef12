import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { VirtualList } from './virtual-list';

const ROW_HEIGHT = 48;
const entries = Array.from({ length: 10_000 }, (_, index) => ({
  id: `entry-${index}`,
  text: `Entry ${index + 1}`,
}));

function scrollWindowTo(y: number) {
  Object.defineProperty(window, 'scrollY', { value: y, configurable: true });
  fireEvent.scroll(window);
}

describe('VirtualList', () => {
  beforeEach(() => {
    // jsdom has no layout: every rendered row is 48 px high, the window 768 px (jsdom's default).
    vi.spyOn(HTMLElement.prototype, 'offsetHeight', 'get').mockImplementation(function (this: HTMLElement) {
      return this.classList.contains('virtual-list__row') ? ROW_HEIGHT : 0;
    });
    scrollWindowTo(0);
  });
  afterEach(() => {
    scrollWindowTo(0);
  });

  function renderEntries() {
    return render(
      <VirtualList
        items={entries}
        label="Points history"
        estimateSize={ROW_HEIGHT}
        getKey={(entry) => entry.id}
        renderItem={(entry) => <p>{entry.text}</p>}
      />,
    );
  }

  it('renders only the rows on screen plus the overscan for 10 000 items', () => {
    renderEntries();

    const rows = within(screen.getByRole('list', { name: 'Points history' })).getAllByRole('listitem');
    // 768 px / 48 px = 16 rows on screen, plus up to 8 below.
    expect(rows.length).toBeGreaterThanOrEqual(16);
    expect(rows.length).toBeLessThanOrEqual(16 + 2 * 8 + 1);
    expect(screen.getByText('Entry 1')).toBeInTheDocument();
    expect(screen.queryByText('Entry 100')).not.toBeInTheDocument();
  });

  it('tells screen readers the full length and each row’s position', () => {
    renderEntries();

    const [first, second] = screen.getAllByRole('listitem');
    expect(first).toHaveAttribute('aria-setsize', '10000');
    expect(first).toHaveAttribute('aria-posinset', '1');
    expect(second).toHaveAttribute('aria-posinset', '2');
    expect(first).toHaveTextContent('Entry 1');
  });

  it('reserves the height of the whole list so the page scrolls its full length', () => {
    renderEntries();
    expect(screen.getByRole('list')).toHaveStyle({ height: `${10_000 * ROW_HEIGHT}px` });
  });

  it('keeps the DOM bounded while the page scrolls deep into the list', () => {
    renderEntries();

    act(() => scrollWindowTo(5_000 * ROW_HEIGHT));

    const rows = screen.getAllByRole('listitem');
    expect(rows.length).toBeLessThanOrEqual(16 + 2 * 8 + 1);
    expect(screen.getByText('Entry 5001')).toBeInTheDocument();
    expect(screen.queryByText('Entry 1')).not.toBeInTheDocument();
    const positions = rows.map((row) => Number(row.getAttribute('aria-posinset')));
    expect(Math.min(...positions)).toBeGreaterThan(4_980);
    expect(Math.max(...positions)).toBeLessThan(5_030);
    // Each row sits at its own place in the list.
    const row5001 = screen.getByText('Entry 5001').closest('li')!;
    expect(row5001.style.transform).toBe(`translateY(${5_000 * ROW_HEIGHT}px)`);
  });

  it('renders nothing for an empty list', () => {
    render(<VirtualList items={[]} label="Points history" renderItem={() => <p>never</p>} />);
    expect(screen.getByRole('list', { name: 'Points history' })).toBeEmptyDOMElement();
  });
});
