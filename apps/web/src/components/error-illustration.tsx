/** The error page's illustration: a car stopped at a warning sign. Named for assistive technology. */
export function ErrorIllustration({ label }: { label: string }) {
  return (
    <svg className="error-illustration" viewBox="0 0 240 160" role="img" aria-label={label}>
      <path d="M0 132h240" stroke="currentColor" strokeOpacity="0.2" strokeWidth="4" />
      <path d="M24 146h36M96 146h48M180 146h36" stroke="currentColor" strokeOpacity="0.25" strokeWidth="4" />
      <g transform="translate(28 70)">
        <path
          d="M8 50l10-26a10 10 0 0 1 9.3-6.4h46.4A10 10 0 0 1 83 24l10 26v12a4 4 0 0 1-4 4h-8a4 4 0 0 1-4-4v-4H24v4a4 4 0 0 1-4 4h-8a4 4 0 0 1-4-4z"
          className="error-illustration__car"
        />
        <path d="M24 28h53l6 16H18z" fill="#fff" fillOpacity="0.85" />
        <circle cx="24" cy="52" r="5" fill="#fff" />
        <circle cx="77" cy="52" r="5" fill="#fff" />
      </g>
      <g transform="translate(150 28)">
        <path d="M30 4l28 50H2z" fill="#f5b301" stroke="#1b1f24" strokeWidth="3" strokeLinejoin="round" />
        <path d="M30 22v16" stroke="#1b1f24" strokeWidth="5" strokeLinecap="round" />
        <circle cx="30" cy="46" r="3" fill="#1b1f24" />
        <path d="M30 56v48" stroke="#1b1f24" strokeWidth="4" />
      </g>
    </svg>
  );
}
