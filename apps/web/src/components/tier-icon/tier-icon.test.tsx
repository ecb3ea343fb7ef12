import { render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { iconSizes, tierIconName, tierIconNames, type IconSize } from '@roadpass/contracts';
import { Icon, iconNames, TierIcon } from '.';

const sizes: [IconSize, number][] = [
  ['xs', 24],
  ['sm', 28],
  ['md', 32],
  ['lg', 40],
];

describe('TierIcon', () => {
  it.each(sizes)('renders %s at %i px', (size, pixels) => {
    const { container } = render(<TierIcon name="royal gold" size={size} />);
    const svg = container.querySelector('svg')!;
    expect(svg).toHaveAttribute('width', String(pixels));
    expect(svg).toHaveAttribute('height', String(pixels));
    expect(iconSizes[size]).toBe(pixels);
  });

  it('is 32 px (md) by default', () => {
    const { container } = render(<TierIcon name="sky blue" />);
    expect(container.querySelector('svg')).toHaveAttribute('width', '32');
  });

  it('has a drawing for every tier icon name of the spec, each different', () => {
    const drawings = tierIconNames.map((name) => {
      const { container } = render(<TierIcon name={name} />);
      const svg = container.querySelector('svg');
      expect(svg, name).not.toBeNull();
      return svg!.innerHTML;
    });
    expect(new Set(drawings).size).toBe(tierIconNames.length);
  });

  it('draws a tier slug through tierIconName, unknown slugs as the generic icon', () => {
    const { container } = render(
      <>
        <TierIcon name={tierIconName('sapphire-diamond')} />
        <TierIcon name={tierIconName('platinum')} />
      </>,
    );
    expect([...container.querySelectorAll('svg')].map((svg) => svg.dataset.icon)).toEqual([
      'sapphire diamond',
      'generic',
    ]);
  });

  it('is decorative without a title and named with one', () => {
    render(
      <>
        <TierIcon name="ocean silver" />
        <TierIcon name="royal gold" title="Royal gold" />
      </>,
    );
    expect(screen.getAllByRole('img')).toHaveLength(1);
    expect(screen.getByRole('img', { name: 'Royal gold' })).toBeInTheDocument();
  });

  it('warns about a missing icon and keeps its place with an empty placeholder of the same size', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const { container } = render(<TierIcon name="platinum" size="lg" />);

    expect(container.querySelector('svg')).toBeNull();
    const placeholder = container.firstElementChild as HTMLElement;
    expect(placeholder).toBeEmptyDOMElement();
    expect(placeholder).toHaveStyle({ width: '40px', height: '40px' });
    expect(placeholder).toHaveAttribute('aria-hidden', 'true');
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('"platinum"'));
  });
});

describe('Icon', () => {
  it('has the interface icons the loyalty screens use', () => {
    expect(iconNames).toEqual(
      expect.arrayContaining([
        'chevron-left',
        'chevron-right',
        'copy',
        'check',
        'info',
        'star',
        'history',
        'gift',
        'lock',
        'close',
      ]),
    );
    for (const name of iconNames) {
      const { container } = render(<Icon name={name} size="sm" />);
      const svg = container.querySelector('svg');
      expect(svg, name).toHaveAttribute('width', '28');
      expect(svg!.childElementCount, name).toBeGreaterThan(0);
    }
  });

  it('is named by its title', () => {
    render(<Icon name="copy" title="Copy the code" />);
    expect(screen.getByRole('img', { name: 'Copy the code' })).toBeInTheDocument();
  });

  it('warns about a missing icon and renders an empty placeholder of the same size', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const { container } = render(<Icon name="rocket" size="xs" />);

    expect(container.querySelector('svg')).toBeNull();
    expect(container.firstElementChild).toHaveStyle({ width: '24px', height: '24px' });
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('"rocket"'));
  });
});
