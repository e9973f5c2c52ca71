// The 7×24 hourly activity heatmap in hand-drawn SVG: weekdays (Monday first, as the server sends them)
// by local hours, darker where more messages were posted. Every cell is reachable with the arrow keys and
// says its weekday, hour and count; a legend and a one-line summary carry the same story in words.
import { useState } from 'react';
import { ChartTip, type Tip, useElementWidth } from './chart-parts.tsx';
import { formatCount, hourLabel, WEEKDAYS } from './format.ts';
import { useRovingFocus } from './roving-focus.ts';

const LEFT = 40;
const TOP = 20;
const GAP = 2;
const LEGEND_STEPS = [0, 0.25, 0.5, 0.75, 1];

/** Cell opacity for a share of the busiest cell: never invisible when it has any message at all. */
const strength = (share: number) => (share <= 0 ? 0 : 0.18 + 0.82 * share);

const messages = (n: number) => `${formatCount(n)} ${n === 1 ? 'message' : 'messages'}`;

export function Heatmap({ grid }: { grid: readonly (readonly number[])[] }) {
  const [ref, width] = useElementWidth<HTMLElement>();
  const [tip, setTip] = useState<Tip | null>(null);
  const max = Math.max(0, ...grid.flat());
  const cellW = Math.max(9, (width - LEFT) / 24);
  const cellH = Math.min(30, Math.max(16, cellW * 0.85));
  const chartW = LEFT + cellW * 24;
  const height = TOP + cellH * 7;
  const cell = (i: number) => ({ day: Math.floor(i / 24), hour: i % 24 });
  const value = (day: number, hour: number) => grid[day]?.[hour] ?? 0;
  const name = (day: number, hour: number) =>
    `${WEEKDAYS[day]} ${hourLabel(hour)}–${hourLabel((hour + 1) % 24)}: ${messages(value(day, hour))}`;
  const show = (i: number) => {
    const { day, hour } = cell(i);
    setTip({ x: LEFT + cellW * hour + cellW / 2, y: TOP + cellH * day, text: name(day, hour) });
  };
  const item = useRovingFocus(7 * 24, 24, show);

  return (
    <div>
      <figure ref={ref} className="relative m-0 w-full overflow-x-auto">
        <figcaption className="sr-only">
          Messages by weekday and hour, in your time zone. Use the arrow keys to move between cells.
        </figcaption>
        <svg width={chartW} height={height} viewBox={`0 0 ${chartW} ${height}`} className="block">
          {Array.from({ length: 8 }, (_, k) => k * 3).map((hour) => (
            <text
              key={hour}
              aria-hidden
              x={LEFT + cellW * hour + 1}
              y={12}
              className="fill-muted text-[10px] tabular-nums"
            >
              {hourLabel(hour).slice(0, 2)}
            </text>
          ))}
          {WEEKDAYS.map((day, d) => (
            <text
              key={day}
              aria-hidden
              x={0}
              y={TOP + cellH * d + cellH / 2}
              dy="0.32em"
              className="fill-muted text-[11px]"
            >
              {day.slice(0, 3)}
            </text>
          ))}
          {Array.from({ length: 7 * 24 }, (_, i) => {
            const { day, hour } = cell(i);
            const v = value(day, hour);
            const x = LEFT + cellW * hour;
            const y = TOP + cellH * day;
            return (
              <g key={`${day}-${hour}`}>
                <rect
                  aria-hidden
                  x={x + GAP / 2}
                  y={y + GAP / 2}
                  width={cellW - GAP}
                  height={cellH - GAP}
                  rx={3}
                  className="fill-hover"
                />
                {v > 0 ? (
                  <rect
                    aria-hidden
                    x={x + GAP / 2}
                    y={y + GAP / 2}
                    width={cellW - GAP}
                    height={cellH - GAP}
                    rx={3}
                    className="fill-accent"
                    fillOpacity={strength(v / max)}
                  />
                ) : null}
                {/* biome-ignore lint/a11y/noInteractiveElementToNoninteractiveRole: a data point reached by roving focus and named by its value, the pattern of accessible charts */}
                <rect
                  {...item(i)}
                  role="img"
                  x={x}
                  y={y}
                  width={cellW}
                  height={cellH}
                  rx={4}
                  aria-label={name(day, hour)}
                  className="fill-transparent stroke-transparent outline-none hover:stroke-fg/40 focus-visible:stroke-fg"
                  strokeWidth={1.5}
                  onMouseEnter={() => show(i)}
                  onBlur={() => setTip(null)}
                  onMouseLeave={() => setTip(null)}
                />
              </g>
            );
          })}
        </svg>
        <ChartTip tip={tip} width={chartW} />
      </figure>
      <div className="mt-3 flex flex-wrap items-center justify-between gap-2 text-xs text-muted">
        <p>{summary(grid)}</p>
        <div className="flex items-center gap-1.5" aria-hidden>
          <span>Less</span>
          {LEGEND_STEPS.map((share) => (
            <svg key={share} width={12} height={12} className="block">
              <rect width={12} height={12} rx={3} className="fill-hover" />
              {share > 0 ? (
                <rect width={12} height={12} rx={3} className="fill-accent" fillOpacity={strength(share)} />
              ) : null}
            </svg>
          ))}
          <span>More</span>
        </div>
      </div>
    </div>
  );
}

/** "Busiest: Tuesdays 10:00–11:00, 42 messages": the one thing most people look for. */
export function summary(grid: readonly (readonly number[])[]): string {
  let best = { day: 0, hour: 0, value: 0 };
  grid.forEach((row, day) => {
    row.forEach((value, hour) => {
      if (value > best.value) best = { day, hour, value };
    });
  });
  if (best.value === 0) return 'No messages in this period.';
  return `Busiest: ${WEEKDAYS[best.day]}s ${hourLabel(best.hour)}–${hourLabel((best.hour + 1) % 24)}, ${messages(best.value)}.`;
}
