import type { PaymentProfile } from '@roadpass/contracts';

export type BrandName = 'VISA' | 'MASTERCARD' | 'AMEX' | 'OTHER' | 'SEPA';

export const brandOf = (profile: PaymentProfile): BrandName =>
  profile.type === 'SEPA' ? 'SEPA' : profile.brand;

/** Small inline brand marks (decorative: the brand is also written out as text next to them). */
export function BrandMark({ brand }: { brand: BrandName }) {
  const frame = {
    width: 48,
    height: 32,
    viewBox: '0 0 48 32',
    'aria-hidden': true,
    focusable: false,
  } as const;
  switch (brand) {
    case 'MASTERCARD':
      return (
        <svg {...frame}>
          <rect width="48" height="32" rx="4" fill="#1a1f36" />
          <circle cx="19" cy="16" r="9" fill="#eb001b" />
          <circle cx="29" cy="16" r="9" fill="#f79e1b" fillOpacity="0.9" />
        </svg>
      );
    case 'VISA':
    case 'AMEX':
    case 'SEPA':
      return (
        <svg {...frame}>
          <rect
            width="48"
            height="32"
            rx="4"
            fill={brand === 'VISA' ? '#1a1f71' : brand === 'AMEX' ? '#006fcf' : '#10298e'}
          />
          <text
            x="24"
            y="20.5"
            textAnchor="middle"
            fontFamily="Arial, Helvetica, sans-serif"
            fontSize={brand === 'VISA' ? 13 : 11}
            fontWeight="700"
            fontStyle={brand === 'VISA' ? 'italic' : 'normal'}
            fill="#ffffff"
          >
            {brand}
          </text>
        </svg>
      );
    default:
      return (
        <svg {...frame}>
          <rect x="1" y="1" width="46" height="30" rx="4" fill="#ffffff" stroke="#525a66" strokeWidth="2" />
          <rect x="1" y="8" width="46" height="6" fill="#525a66" />
          <rect x="6" y="20" width="14" height="4" rx="1" fill="#525a66" />
        </svg>
      );
  }
}
