export { TierIcon, type TierIconProps } from './tier-icon';
export { Icon, type IconProps } from './icon';
export { iconNames, type IconName } from './ui-icon-paths';
