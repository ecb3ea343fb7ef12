import { IconFrame, MissingIcon, type IconFrameProps } from './icon-frame';
import { uiIconPaths, type IconName } from './ui-icon-paths';

export interface IconProps extends IconFrameProps {
  name: IconName | (string & {});
}

function isIconName(name: string): name is IconName {
  return Object.hasOwn(uiIconPaths, name);
}

/** An interface icon (chevrons, copy, check, …) in the icon sizes of docs/product/constants.md#business-constants, drawn in currentColor. */
export function Icon({ name, className, ...props }: IconProps) {
  if (!isIconName(name)) return <MissingIcon name={name} kind="interface" className={className} {...props} />;
  return (
    <IconFrame
      name={name}
      viewBox="0 0 24 24"
      className={className ? `ui-icon ${className}` : 'ui-icon'}
      {...props}
    >
      {uiIconPaths[name]}
    </IconFrame>
  );
}
