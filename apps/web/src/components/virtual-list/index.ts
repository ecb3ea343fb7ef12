export { VirtualList, type VirtualListProps } from './virtual-list';
