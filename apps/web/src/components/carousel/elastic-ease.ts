/** An easing function: progress 0…1 in, eased progress out (may overshoot 1). */
export type Easing = (progress: number) => number;

/**
 * GSAP's `elastic.out(amplitude, period)`: a fast approach that overshoots and rings out towards 1.
 * As in GSAP, an amplitude below 1 does not shrink the swing (the curve would no longer start at 0) but
 * stretches the period, which gives a softer, single overshoot: elastic.out(0.5, 0.8) overshoots by
 * about 1.2 % and has settled well before the end.
 */
export function elasticOut(amplitude = 1, period = 0.3): Easing {
  if (!(amplitude > 0) || !(period > 0)) {
    throw new RangeError(`elasticOut needs a positive amplitude and period (got ${amplitude}, ${period})`);
  }
  const swing = Math.max(amplitude, 1);
  const stretchedPeriod = period / Math.min(amplitude, 1);
  // Shifts the sine so that the curve starts exactly at 0.
  const phase = (stretchedPeriod / (2 * Math.PI)) * Math.asin(1 / swing);
  const angularFrequency = (2 * Math.PI) / stretchedPeriod;
  return (progress) => {
    if (progress <= 0) return 0;
    if (progress >= 1) return 1;
    return swing * 2 ** (-10 * progress) * Math.sin((progress - phase) * angularFrequency) + 1;
  };
}
