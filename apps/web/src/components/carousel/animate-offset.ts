import type { Easing } from './elastic-ease';

export interface OffsetAnimation {
  from: number;
  to: number;
  duration: number;
  easing: Easing;
  onUpdate: (offset: number) => void;
  onComplete?: () => void;
}

/** Animates a number frame by frame; returns a function that stops it where it is. */
export function animateOffset({
  from,
  to,
  duration,
  easing,
  onUpdate,
  onComplete,
}: OffsetAnimation): () => void {
  let frame = 0;
  let start: number | null = null;
  const step = (now: number) => {
    start ??= now;
    const progress = duration > 0 ? Math.min(1, (now - start) / duration) : 1;
    onUpdate(from + (to - from) * easing(progress));
    if (progress < 1) frame = requestAnimationFrame(step);
    else onComplete?.();
  };
  frame = requestAnimationFrame(step);
  return () => cancelAnimationFrame(frame);
}

export function prefersReducedMotion(): boolean {
  return (
    typeof window.matchMedia === 'function' && window.matchMedia('(prefers-reduced-motion: reduce)').matches
  );
}
