export { Carousel, type CarouselProps } from './carousel';
export { carouselTiming } from './carousel-timing';
export { elasticOut, type Easing } from './elastic-ease';
export { snapTarget, nearestCard, clampCard, type SnapInput } from './snap';
