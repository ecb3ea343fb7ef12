import { act, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { i18n } from '@/lib/i18n/i18n';
import { renderWithProviders } from '@/testing/render';
import english from '../../../../../content/translations/en.json';
import { Carousel, type CarouselProps } from './carousel';
import { carouselTiming } from './carousel-timing';

const tiers = ['Sky blue', 'Ocean silver', 'Royal gold', 'Sapphire diamond'];

function renderCarousel(props: Partial<CarouselProps> = {}, onCardButton = vi.fn()) {
  const onCardChange = vi.fn();
  const view = renderWithProviders(
    <Carousel label="Loyalty tiers" onCardChange={onCardChange} {...props}>
      {tiers.map((tier) => (
        <article key={tier}>
          <h3>{tier}</h3>
          <button type="button" onClick={() => onCardButton(tier)}>
            Open {tier}
          </button>
        </article>
      ))}
    </Carousel>,
  );
  return { ...view, onCardChange, onCardButton };
}

const region = () => screen.getByRole('region', { name: 'Loyalty tiers' });
// Slides hidden from screen readers have no computed name, so match their label directly.
const slide = (label: string) => {
  const found = screen.getAllByRole('group', { hidden: true }).find((group) => group.ariaLabel === label);
  if (!found) throw new Error(`No slide labelled "${label}"`);
  return found;
};
const dots = () => screen.getAllByRole('button', { name: /^Go to card/ });
const activeDots = () => dots().filter((dot) => dot.getAttribute('aria-current') === 'true');
const announcement = () => region().querySelector('[aria-live="polite"]')?.textContent;
const cardsContainer = () => region().querySelector<HTMLElement>('.carousel__cards')!;
const viewport = () => region().querySelector<HTMLElement>('.carousel__viewport')!;
const offset = () => Number(/translate3d\((-?[\d.]+)px/.exec(cardsContainer().style.transform)?.[1] ?? 0);

/** The current card: the one slide not hidden from screen readers (only it fits in a 340 px viewport). */
function expectCurrentCard(position: number) {
  tiers.forEach((_, index) => {
    const card = slide(`${index + 1} of 4`);
    if (index === position - 1) {
      expect(card).not.toHaveAttribute('aria-hidden');
      expect(card).not.toHaveAttribute('inert');
    } else {
      expect(card).toHaveAttribute('aria-hidden', 'true');
      expect(card).toHaveAttribute('inert');
    }
  });
}

/**
 * jsdom has no layout: give the cards a phone-like one (viewport 340 px, cards 300 px wide and 310 px
 * apart, so card i settles at offset -310·i) and a ResizeObserver that reports it at once.
 */
function givePhoneLayout() {
  const positionOf = (element: HTMLElement) => Array.from(element.parentElement!.children).indexOf(element);
  vi.spyOn(HTMLElement.prototype, 'offsetLeft', 'get').mockImplementation(function (this: HTMLElement) {
    return this.classList.contains('carousel__card') ? positionOf(this) * 310 : 0;
  });
  vi.spyOn(HTMLElement.prototype, 'offsetWidth', 'get').mockImplementation(function (this: HTMLElement) {
    return this.classList.contains('carousel__card') ? 300 : 0;
  });
  vi.spyOn(Element.prototype, 'clientWidth', 'get').mockImplementation(function (this: Element) {
    return this.classList.contains('carousel__viewport') ? 340 : 0;
  });
  vi.stubGlobal(
    'ResizeObserver',
    class {
      constructor(private readonly callback: () => void) {}
      observe() {
        this.callback();
      }
      unobserve() {}
      disconnect() {}
    },
  );
}

function drag(from: number, to: number, target: Element = viewport()) {
  const pointer = { pointerId: 1, pointerType: 'mouse', isPrimary: true, clientY: 200 };
  fireEvent.pointerDown(target, { ...pointer, buttons: 1, clientX: from });
  const steps = 5;
  for (let step = 1; step <= steps; step++) {
    vi.advanceTimersByTime(16);
    fireEvent.pointerMove(target, { ...pointer, buttons: 1, clientX: from + ((to - from) * step) / steps });
  }
  vi.advanceTimersByTime(16);
  fireEvent.pointerUp(target, { ...pointer, buttons: 0, clientX: to });
}

beforeAll(() => {
  i18n.addResourceBundle('en', 'translation', english, true, true);
  // jsdom has no pointer capture; use-gesture captures the pointer on the element pressed.
  Element.prototype.setPointerCapture ??= () => {};
  Element.prototype.releasePointerCapture ??= () => {};
  Element.prototype.hasPointerCapture ??= () => false;
});

describe('Carousel', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('is a labelled carousel region of labelled slides, showing only the current one to screen readers', () => {
    renderCarousel();

    expect(region()).toHaveAttribute('aria-roledescription', 'carousel');
    expect(slide('1 of 4')).toHaveAttribute('aria-roledescription', 'slide');
    expectCurrentCard(1);
    expect(screen.getByRole('heading', { name: 'Sky blue' })).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Royal gold' })).not.toBeInTheDocument();
  });

  it('names the slides with cardLabel when given', () => {
    renderCarousel({ cardLabel: (index, count) => `${tiers[index]}, ${index + 1} of ${count}` });

    expect(slide('Royal gold, 3 of 4')).toBeInTheDocument();
  });

  describe('pager dots', () => {
    it('are not shown by default', () => {
      renderCarousel();
      expect(screen.queryByRole('button', { name: /^Go to card/ })).not.toBeInTheDocument();
    });

    it('mark exactly the current card and move to the card clicked', () => {
      const { onCardChange } = renderCarousel({ showPagination: true });

      expect(dots().map((dot) => dot.getAttribute('aria-label'))).toEqual([
        'Go to card 1 of 4',
        'Go to card 2 of 4',
        'Go to card 3 of 4',
        'Go to card 4 of 4',
      ]);
      expect(activeDots()).toEqual([dots()[0]]);

      fireEvent.click(screen.getByRole('button', { name: 'Go to card 3 of 4' }));

      expect(activeDots()).toEqual([screen.getByRole('button', { name: 'Go to card 3 of 4' })]);
      expect(activeDots()[0]).toHaveClass('carousel__dot--active');
      expect(dots().filter((dot) => dot.classList.contains('carousel__dot--active'))).toHaveLength(1);
      expectCurrentCard(3);
      expect(announcement()).toBe('Card 3 of 4');
      expect(onCardChange).toHaveBeenCalledWith(2);
    });
  });

  describe('keyboard', () => {
    it('moves one card per arrow key, to the ends with Home and End, and announces the card', () => {
      renderCarousel();
      act(() => region().focus());
      expect(region()).toHaveFocus();

      fireEvent.keyDown(region(), { key: 'ArrowRight' });
      expectCurrentCard(2);
      expect(announcement()).toBe('Card 2 of 4');

      fireEvent.keyDown(region(), { key: 'End' });
      expectCurrentCard(4);
      expect(announcement()).toBe('Card 4 of 4');

      fireEvent.keyDown(region(), { key: 'ArrowRight' });
      expectCurrentCard(4);

      fireEvent.keyDown(region(), { key: 'ArrowLeft' });
      expectCurrentCard(3);

      fireEvent.keyDown(region(), { key: 'Home' });
      expectCurrentCard(1);
      expect(announcement()).toBe('Card 1 of 4');
      expect(region()).toHaveFocus();
    });

    it('leaves arrow keys alone inside a card', () => {
      renderCarousel();
      fireEvent.keyDown(screen.getByRole('button', { name: 'Open Sky blue' }), { key: 'ArrowRight' });
      expectCurrentCard(1);
    });

    it('has previous and next buttons that stop at the ends', () => {
      renderCarousel();
      const previous = screen.getByRole('button', { name: 'Previous card' });
      const next = screen.getByRole('button', { name: 'Next card' });
      expect(previous).toHaveAttribute('aria-disabled', 'true');

      fireEvent.click(next);
      fireEvent.click(next);
      expectCurrentCard(3);
      expect(announcement()).toBe('Card 3 of 4');

      fireEvent.click(next);
      fireEvent.click(next);
      expectCurrentCard(4);
      expect(next).toHaveAttribute('aria-disabled', 'true');

      fireEvent.click(previous);
      expectCurrentCard(3);
    });
  });

  describe('initial card', () => {
    beforeEach(() => {
      vi.useFakeTimers();
    });

    it('with pagination, scrolls to the initial card after 1000 ms', () => {
      const { onCardChange } = renderCarousel({ showPagination: true, initialCard: 2 });
      expect(carouselTiming.initialScrollDelay).toBe(1000);

      act(() => vi.advanceTimersByTime(999));
      expect(activeDots()).toEqual([screen.getByRole('button', { name: 'Go to card 1 of 4' })]);

      act(() => vi.advanceTimersByTime(1));
      expect(activeDots()).toEqual([screen.getByRole('button', { name: 'Go to card 3 of 4' })]);
      expectCurrentCard(3);
      expect(onCardChange).toHaveBeenCalledWith(2);
      // Not the customer's doing: nothing to announce.
      expect(announcement()).toBe('');
    });

    it('does not scroll on its own once the customer has moved it', () => {
      renderCarousel({ showPagination: true, initialCard: 2 });
      fireEvent.click(screen.getByRole('button', { name: 'Go to card 2 of 4' }));

      act(() => vi.advanceTimersByTime(2000));
      expectCurrentCard(2);
    });

    it('without pagination, starts on the initial card', () => {
      renderCarousel({ initialCard: 3 });
      expectCurrentCard(4);
    });
  });

  describe('swiping', () => {
    beforeEach(() => {
      vi.useFakeTimers();
      givePhoneLayout();
    });

    it('lets vertical page scrolling through and follows the pointer while dragging', () => {
      renderCarousel();
      const pointer = { pointerId: 1, pointerType: 'mouse', isPrimary: true, clientY: 200, buttons: 1 };
      fireEvent.pointerDown(viewport(), { ...pointer, clientX: 300 });
      vi.advanceTimersByTime(16);
      fireEvent.pointerMove(viewport(), { ...pointer, clientX: 250 });

      expect(offset()).toBeCloseTo(-47, 0);
      fireEvent.pointerUp(viewport(), { ...pointer, buttons: 0, clientX: 250 });
    });

    it('settles back on the current card after a drag under 70 px', () => {
      renderCarousel();
      drag(300, 231);
      act(() => vi.advanceTimersByTime(700));

      expectCurrentCard(1);
      expect(offset()).toBe(0);
    });

    it('moves one card after a drag of 70 px, settling with an elastic overshoot in 0.6 s', () => {
      const { onCardChange } = renderCarousel();
      drag(300, 230);

      expectCurrentCard(2);
      expect(onCardChange).toHaveBeenCalledWith(1);
      expect(announcement()).toBe('Card 2 of 4');

      const seen: number[] = [];
      for (let elapsed = 0; elapsed < carouselTiming.settleDuration + 50; elapsed += 16) {
        act(() => vi.advanceTimersByTime(16));
        seen.push(offset());
      }
      expect(Math.min(...seen)).toBeLessThan(-310);
      expect(Math.min(...seen)).toBeGreaterThan(-320);
      expect(offset()).toBe(-310);
    });

    it('moves back a card when dragged to the right', () => {
      renderCarousel({ initialCard: 2 });
      drag(100, 250);
      act(() => vi.advanceTimersByTime(700));

      expectCurrentCard(2);
      expect(offset()).toBe(-310);
    });

    it('never goes past the first or the last card', () => {
      renderCarousel();
      drag(100, 400);
      act(() => vi.advanceTimersByTime(700));
      expectCurrentCard(1);
      expect(offset()).toBe(0);

      fireEvent.keyDown(region(), { key: 'End' });
      act(() => vi.advanceTimersByTime(700));
      drag(300, 0);
      act(() => vi.advanceTimersByTime(700));
      expectCurrentCard(4);
      expect(offset()).toBe(-930);
    });

    it('only stretches a little past the ends while dragging', () => {
      renderCarousel();
      const pointer = { pointerId: 1, pointerType: 'mouse', isPrimary: true, clientY: 200, buttons: 1 };
      fireEvent.pointerDown(viewport(), { ...pointer, clientX: 100 });
      vi.advanceTimersByTime(16);
      fireEvent.pointerMove(viewport(), { ...pointer, clientX: 300 });

      expect(offset()).toBeGreaterThan(0);
      expect(offset()).toBeLessThan(60);
      fireEvent.pointerUp(viewport(), { ...pointer, buttons: 0, clientX: 300 });
    });

    it('snaps without the wobble when reduced motion is asked for', () => {
      vi.stubGlobal('matchMedia', (query: string) => ({ matches: query.includes('reduce'), media: query }));
      renderCarousel();
      drag(300, 200);

      expect(offset()).toBe(-310);
    });

    it('does not click what is under the pointer at the end of a swipe, but a tap still clicks', () => {
      const { onCardButton } = renderCarousel();
      const button = within(slide('1 of 4')).getByRole('button', { name: 'Open Sky blue' });

      drag(300, 200, button);
      fireEvent.click(button);
      expect(onCardButton).not.toHaveBeenCalled();

      act(() => vi.advanceTimersByTime(700));
      fireEvent.keyDown(region(), { key: 'Home' });
      const pointer = { pointerId: 1, pointerType: 'mouse', isPrimary: true, clientY: 200, clientX: 50 };
      fireEvent.pointerDown(button, { ...pointer, buttons: 1 });
      fireEvent.pointerUp(button, { ...pointer, buttons: 0 });
      fireEvent.click(button);
      expect(onCardButton).toHaveBeenCalledWith('Sky blue');
    });

    it('shows neighbouring cards that fit in a wide viewport to screen readers too', () => {
      vi.spyOn(Element.prototype, 'clientWidth', 'get').mockReturnValue(1000);
      renderCarousel();

      expect(slide('2 of 4')).not.toHaveAttribute('aria-hidden');
      expect(slide('3 of 4')).not.toHaveAttribute('aria-hidden');
      expect(slide('4 of 4')).toHaveAttribute('aria-hidden', 'true');
    });

    it('makes a neighbour in view the current card when focus moves into it', () => {
      vi.spyOn(Element.prototype, 'clientWidth', 'get').mockReturnValue(1000);
      renderCarousel();

      act(() => within(slide('2 of 4')).getByRole('button', { name: 'Open Ocean silver' }).focus());

      expect(slide('2 of 4')).toHaveClass('carousel__card--current');
      expect(announcement()).toBe('Card 2 of 4');
    });
  });
});
