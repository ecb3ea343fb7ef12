import { useId } from 'react';
import type { LoyaltyExpiryMonth } from '@roadpass/contracts';
import { formatPoints } from '@/lib/loyalty/format';

const WIDTH = 360;
const HEIGHT = 150;
const TOP = 18;
const BOTTOM = 22;
const SLOT = WIDTH / 12;
const BAR = SLOT * 0.6;

const monthDate = (month: string) => new Date(`${month}-01T00:00:00Z`);

/**
 * The points that expire in each of the next 12 months, as a bar chart drawn in SVG (decision 0035:
 * twelve rectangles need no charting library). The SVG is a picture for the eye only (aria-hidden);
 * screen readers get the same figures as a table with a caption and headers, visually hidden.
 */
export function ExpiryChart({
  months,
  locale,
  caption,
  monthHeader,
  pointsHeader,
}: {
  months: readonly LoyaltyExpiryMonth[];
  locale: string;
  caption: string;
  monthHeader: string;
  pointsHeader: string;
}) {
  const captionId = useId();
  const short = new Intl.DateTimeFormat(locale, { month: 'short', timeZone: 'UTC' });
  const long = new Intl.DateTimeFormat(locale, { month: 'long', year: 'numeric', timeZone: 'UTC' });
  const max = Math.max(1, ...months.map((m) => m.points));
  const plot = HEIGHT - TOP - BOTTOM;

  return (
    <figure className="expiry-chart" aria-labelledby={captionId}>
      <svg
        className="expiry-chart__svg"
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        aria-hidden="true"
        focusable="false"
        data-testid="expiry-chart-svg"
      >
        <line className="expiry-chart__axis" x1={0} x2={WIDTH} y1={HEIGHT - BOTTOM} y2={HEIGHT - BOTTOM} />
        {months.map((m, i) => {
          const height = m.points === 0 ? 0 : Math.max(2, (m.points / max) * plot);
          const x = i * SLOT + (SLOT - BAR) / 2;
          const y = HEIGHT - BOTTOM - height;
          return (
            <g key={m.month}>
              {m.points > 0 && (
                <>
                  <rect className="expiry-chart__bar" x={x} y={y} width={BAR} height={height} rx={2} />
                  <text className="expiry-chart__value" x={x + BAR / 2} y={y - 4} textAnchor="middle">
                    {formatPoints(m.points, locale)}
                  </text>
                </>
              )}
              <text
                className="expiry-chart__month"
                x={i * SLOT + SLOT / 2}
                y={HEIGHT - 6}
                textAnchor="middle"
              >
                {short.format(monthDate(m.month)).replace('.', '')}
              </text>
            </g>
          );
        })}
      </svg>
      {/* The wrapper hides the table: a table's own box grows to its content whatever its width. */}
      <div className="visually-hidden">
        <table>
          <caption id={captionId}>{caption}</caption>
          <thead>
            <tr>
              <th scope="col">{monthHeader}</th>
              <th scope="col">{pointsHeader}</th>
            </tr>
          </thead>
          <tbody>
            {months.map((m) => (
              <tr key={m.month}>
                <th scope="row">{long.format(monthDate(m.month))}</th>
                <td>{formatPoints(m.points, locale)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </figure>
  );
}
