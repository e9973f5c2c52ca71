// The date range and trend period of every metrics page, kept in the URL (?range=7d&period=week) so a
// link, a reload and the back button show the same figures, and moving between pages keeps the range.
import { useMemo } from 'react';
import { useSearchParams } from 'react-router';
import type { MetricPeriod } from '../../../schemas/protocol/index.ts';
import type { MetricsWindow } from '../../data/metrics.ts';
import { browserTimeZone, parseRange, type RangePreset, rangeWindow } from './date-range.ts';

const PERIODS: readonly MetricPeriod[] = ['day', 'week', 'month'];

export interface MetricsRange {
  preset: RangePreset;
  window: MetricsWindow;
  period: MetricPeriod;
  setPreset: (preset: RangePreset) => void;
  setPeriod: (period: MetricPeriod) => void;
}

export function useMetricsRange(): MetricsRange {
  const [params, setParams] = useSearchParams();
  const preset = parseRange(params.get('range'));
  const rawPeriod = params.get('period');
  const period = PERIODS.find((p) => p === rawPeriod) ?? 'day';
  // Computed once per preset: "today" must not move with every render, only with the next visit.
  const window = useMemo(() => rangeWindow(preset, Date.now(), browserTimeZone()), [preset]);
  const update = (key: string, value: string) =>
    setParams((current) => {
      const next = new URLSearchParams(current);
      next.set(key, value);
      // A new range starts the engaging messages again at their first page.
      if (key === 'range') next.delete('page');
      return next;
    });
  return {
    preset,
    window,
    period,
    setPreset: (p) => update('range', p),
    setPeriod: (p) => update('period', p),
  };
}
