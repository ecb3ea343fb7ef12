import type { ReactNode } from 'react';
import type { TierIconName } from '@roadpass/contracts';

/**
 * One small badge per tier (viewBox 0 0 32 32). Each tier has its own shape as well as its own colour,
 * so they stay apart for colour-blind customers and in greyscale.
 */
export const tierIconShapes: Record<TierIconName, ReactNode> = {
  generic: (
    <>
      <circle cx="16" cy="16" r="14" fill="#eef0f3" stroke="#6b7480" strokeWidth="2" />
      <path
        d="M16 8.5l2.2 4.6 5 .7-3.6 3.5.9 5L16 19.9l-4.5 2.4.9-5-3.6-3.5 5-.7z"
        fill="none"
        stroke="#6b7480"
        strokeWidth="1.8"
        strokeLinejoin="round"
      />
    </>
  ),
  'sky blue': (
    <>
      <circle cx="16" cy="16" r="14" fill="#7cc8f2" stroke="#2d86b9" strokeWidth="2" />
      <path
        d="M10.5 20.5a3.5 3.5 0 01.4-7 5 5 0 019.6-1.2 4 4 0 01.5 8.2z"
        fill="#ffffff"
        stroke="#2d86b9"
        strokeWidth="1.4"
        strokeLinejoin="round"
      />
    </>
  ),
  'ocean silver': (
    <>
      <path
        d="M16 2.5l11.7 6.75v13.5L16 29.5 4.3 22.75V9.25z"
        fill="#d3d9e0"
        stroke="#6f7c8a"
        strokeWidth="2"
      />
      <path
        d="M8.5 15.5c2.5-2 5-2 7.5 0s5 2 7.5 0M8.5 20c2.5-2 5-2 7.5 0s5 2 7.5 0"
        fill="none"
        stroke="#4f5b68"
        strokeWidth="1.8"
        strokeLinecap="round"
      />
    </>
  ),
  'royal gold': (
    <>
      <path
        d="M16 2.5l11 4v9.2c0 6.6-4.6 11.4-11 13.8C9.6 27.1 5 22.3 5 15.7V6.5z"
        fill="#f2c14e"
        stroke="#a6780f"
        strokeWidth="2"
        strokeLinejoin="round"
      />
      <path
        d="M10 19.5l-1-8 4.2 3.2L16 9.5l2.8 5.2 4.2-3.2-1 8z"
        fill="#ffffff"
        stroke="#a6780f"
        strokeWidth="1.4"
        strokeLinejoin="round"
      />
    </>
  ),
  'sapphire diamond': (
    <>
      <path
        d="M9 5h14l6 7.5L16 28.5 3 12.5z"
        fill="#2453c4"
        stroke="#142f73"
        strokeWidth="2"
        strokeLinejoin="round"
      />
      <path
        d="M3 12.5h26M12.5 5L10.5 12.5 16 28.5 21.5 12.5 19.5 5"
        fill="none"
        stroke="#9fc0ff"
        strokeWidth="1.3"
        strokeLinejoin="round"
      />
    </>
  ),
};
