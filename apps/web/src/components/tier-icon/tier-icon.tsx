import { tierIconNames, type TierIconName } from '@roadpass/contracts';
import { IconFrame, MissingIcon, type IconFrameProps } from './icon-frame';
import { tierIconShapes } from './tier-icon-shapes';

export interface TierIconProps extends IconFrameProps {
  /** A tier icon name of docs/product/data.md#entities-and-fields ("royal gold"); tierIconName(slug) turns a tier slug into one. */
  name: TierIconName | (string & {});
}

function isTierIconName(name: string): name is TierIconName {
  return (tierIconNames as readonly string[]).includes(name);
}

/** The badge of a loyalty tier, in the icon sizes of docs/product/constants.md#business-constants (xs 24, sm 28, md 32, lg 40 px). */
export function TierIcon({ name, className, ...props }: TierIconProps) {
  if (!isTierIconName(name)) return <MissingIcon name={name} kind="tier" className={className} {...props} />;
  return (
    <IconFrame
      name={name}
      viewBox="0 0 32 32"
      className={className ? `tier-icon ${className}` : 'tier-icon'}
      {...props}
    >
      {tierIconShapes[name]}
    </IconFrame>
  );
}
