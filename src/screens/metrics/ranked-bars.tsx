// A ranked list drawn as horizontal bars in SVG (most visited, most engaging, fastest growing): the name
// above its bar and the figure at the right, the longest bar the leader. Each row is one focusable mark
// whose accessible name carries the figure; arrow keys move through the rows.
import { useState } from 'react';
import { ChartTip, type Tip, useElementWidth } from './chart-parts.tsx';
import { useRovingFocus } from './roving-focus.ts';

export interface RankedDatum {
  key: string;
  name: string;
  value: number;
  /** "1,204 visits": the figure as shown and said. */
  valueText: string;
}

const ROW = 38;
/** Rough width of one 13 px character, to cut long names with an ellipsis before they reach the figure. */
const CHAR_PX = 7.2;

function cut(text: string, room: number): string {
  const max = Math.max(4, Math.floor(room / CHAR_PX));
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

export function RankedBars({ data, label }: { data: readonly RankedDatum[]; label: string }) {
  const [ref, width] = useElementWidth<HTMLElement>();
  const [tip, setTip] = useState<Tip | null>(null);
  const max = Math.max(1, ...data.map((d) => d.value));
  const height = data.length * ROW;
  const show = (i: number) => {
    const d = data[i] as RankedDatum;
    setTip({
      x: Math.max(40, ((width - 8) * d.value) / max),
      y: i * ROW + 22,
      text: `${d.name}: ${d.valueText}`,
    });
  };
  const item = useRovingFocus(data.length, 1, show);

  return (
    <figure ref={ref} className="relative m-0 w-full">
      <figcaption className="sr-only">{`${label}. Use the arrow keys to move between ${data.length} rows.`}</figcaption>
      <svg
        width={width}
        height={height}
        viewBox={`0 0 ${width} ${height}`}
        className="block overflow-visible"
      >
        {data.map((d, i) => {
          const top = i * ROW;
          const valueRoom = d.valueText.length * CHAR_PX + 16;
          return (
            <g key={d.key}>
              {/* biome-ignore lint/a11y/noInteractiveElementToNoninteractiveRole: a data point reached by roving focus and named by its value, the pattern of accessible charts */}
              <rect
                {...item(i)}
                role="img"
                x={0}
                y={top}
                width={width}
                height={ROW}
                rx={6}
                aria-label={`${i + 1}. ${d.name}: ${d.valueText}`}
                className="cursor-default fill-transparent outline-none hover:fill-hover focus-visible:fill-selected"
                onMouseEnter={() => show(i)}
                onBlur={() => setTip(null)}
                onMouseLeave={() => setTip(null)}
              />
              <text aria-hidden x={6} y={top + 15} className="pointer-events-none fill-fg text-[13px]">
                {cut(d.name, width - valueRoom - 12)}
              </text>
              <text
                aria-hidden
                x={width - 6}
                y={top + 15}
                textAnchor="end"
                className="pointer-events-none fill-muted text-[12px] tabular-nums"
              >
                {d.valueText}
              </text>
              <rect
                aria-hidden
                x={6}
                y={top + 23}
                width={width - 12}
                height={7}
                rx={3.5}
                className="pointer-events-none fill-hover"
              />
              <rect
                aria-hidden
                x={6}
                y={top + 23}
                width={Math.max(d.value > 0 ? 4 : 0, ((width - 12) * d.value) / max)}
                height={7}
                rx={3.5}
                className="pointer-events-none fill-accent"
              />
            </g>
          );
        })}
      </svg>
      <ChartTip tip={tip} width={width} />
    </figure>
  );
}
