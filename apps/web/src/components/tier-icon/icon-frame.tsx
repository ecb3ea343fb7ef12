import { useEffect, type ReactNode } from 'react';
import { iconSizes, type IconSize } from '@roadpass/contracts';
import './icon.css';

export interface IconFrameProps {
  size?: IconSize;
  /** Gives the icon an accessible name; without it the icon is decorative (hidden from screen readers). */
  title?: string;
  className?: string;
}

const classNames = (...names: (string | false | undefined)[]) => names.filter(Boolean).join(' ');

/** docs/product/errors.md#error-catalogue: a missing icon logs a console warning and renders an empty placeholder of the same size. */
export function MissingIcon({
  name,
  kind,
  size = 'md',
  className,
}: IconFrameProps & { name: string; kind: 'tier' | 'interface' }) {
  useEffect(() => {
    console.warn(`Missing ${kind} icon "${name}": rendering an empty placeholder`);
  }, [kind, name]);
  const pixels = iconSizes[size];
  return (
    <span
      className={classNames('icon', 'icon--missing', className)}
      style={{ width: pixels, height: pixels }}
      data-icon={name}
      aria-hidden="true"
    />
  );
}

/** The <svg> around every icon: the size in px, decorative unless titled. */
export function IconFrame({
  name,
  size = 'md',
  title,
  className,
  viewBox,
  children,
}: IconFrameProps & { name: string; viewBox: string; children: ReactNode }) {
  const pixels = iconSizes[size];
  return (
    <svg
      className={classNames('icon', className)}
      width={pixels}
      height={pixels}
      viewBox={viewBox}
      focusable="false"
      data-icon={name}
      {...(title ? { role: 'img', 'aria-label': title } : { 'aria-hidden': true })}
    >
      {title && <title>{title}</title>}
      {children}
    </svg>
  );
}
