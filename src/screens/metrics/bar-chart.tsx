// A column chart in hand-drawn SVG (the channel-creation trend): one focusable column per bucket, whose
// accessible name says its label and value; a y axis with round steps; a few x labels that never collide.
import { useState } from 'react';
import { ChartTip, niceStep, type Tip, useElementWidth } from './chart-parts.tsx';
import { formatCompact } from './format.ts';
import { useRovingFocus } from './roving-focus.ts';

export interface BarDatum {
  key: string;
  /** Full label for the tooltip and the accessible name ("March 02, 2026"). */
  label: string;
  /** Short label under the axis ("Mar 2"). */
  tick: string;
  value: number;
}

const HEIGHT = 220;
const LEFT = 36;
const BOTTOM = 24;
const TOP = 12;

export function BarChart({
  data,
  label,
  say,
}: {
  data: readonly BarDatum[];
  /** What the chart shows, for its accessible name ("Channels created per week"). */
  label: string;
  /** "3 channels": how a value is said. */
  say: (value: number) => string;
}) {
  const [ref, width] = useElementWidth<HTMLElement>();
  const [tip, setTip] = useState<Tip | null>(null);
  const max = Math.max(0, ...data.map((d) => d.value));
  const step = niceStep(max);
  const top = Math.max(step, Math.ceil(max / step) * step);
  const plotW = width - LEFT - 4;
  const plotH = HEIGHT - TOP - BOTTOM;
  const band = plotW / Math.max(1, data.length);
  const barW = Math.max(1, Math.min(36, band * 0.72));
  const y = (v: number) => TOP + plotH - (v / top) * plotH;
  // About one x label per 70 px, spread evenly; the last bucket always labelled.
  const every = Math.max(1, Math.ceil(data.length / Math.max(1, Math.floor(plotW / 70))));

  const geometry = (i: number) => {
    const d = data[i] as BarDatum;
    return { x: LEFT + band * i + band / 2, y: y(d.value), d };
  };
  const show = (i: number) => {
    const { x, y: top, d } = geometry(i);
    setTip({ x, y: top, text: `${d.label}: ${say(d.value)}` });
  };
  const item = useRovingFocus(data.length, data.length, show);
  const ticks: number[] = [];
  for (let v = 0; v <= top; v += step) ticks.push(v);

  return (
    <figure ref={ref} className="relative m-0 w-full">
      <figcaption className="sr-only">{`${label}. Use the arrow keys to move between ${data.length} bars.`}</figcaption>
      <svg
        width={width}
        height={HEIGHT}
        viewBox={`0 0 ${width} ${HEIGHT}`}
        className="block overflow-visible"
      >
        {ticks.map((v) => (
          <g key={v} aria-hidden>
            <line
              x1={LEFT}
              x2={width - 4}
              y1={y(v)}
              y2={y(v)}
              className="stroke-line"
              strokeDasharray={v ? '3 3' : undefined}
            />
            <text
              x={LEFT - 8}
              y={y(v)}
              dy="0.32em"
              textAnchor="end"
              className="fill-muted text-[11px] tabular-nums"
            >
              {formatCompact(v)}
            </text>
          </g>
        ))}
        {data.map((d, i) => {
          const { x } = geometry(i);
          const labelled = i % every === 0 || i === data.length - 1;
          // The last label yields to its neighbour rather than overlap it.
          const crowded = i === data.length - 1 && i % every !== 0 && i % every < every / 2;
          return (
            <g key={d.key}>
              {/* biome-ignore lint/a11y/noInteractiveElementToNoninteractiveRole: a data point reached by roving focus and named by its value, the pattern of accessible charts */}
              <rect
                {...item(i)}
                role="img"
                x={LEFT + band * i}
                y={TOP}
                width={band}
                height={plotH}
                aria-label={`${d.label}: ${say(d.value)}`}
                className="cursor-default fill-transparent outline-none hover:fill-hover focus-visible:fill-selected"
                onMouseEnter={() => show(i)}
                onBlur={() => setTip(null)}
                onMouseLeave={() => setTip(null)}
              />
              <rect
                aria-hidden
                x={x - barW / 2}
                y={y(d.value)}
                width={barW}
                height={Math.max(0, TOP + plotH - y(d.value))}
                rx={Math.min(3, barW / 3)}
                className="pointer-events-none fill-accent"
              />
              {labelled && !crowded ? (
                <text
                  aria-hidden
                  x={x}
                  y={HEIGHT - 6}
                  textAnchor="middle"
                  className="pointer-events-none fill-muted text-[11px]"
                >
                  {d.tick}
                </text>
              ) : null}
            </g>
          );
        })}
      </svg>
      <ChartTip tip={tip} width={width} />
    </figure>
  );
}
