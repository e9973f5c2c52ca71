// The frame of /client/:clientId/metrics and its six pages: the header, the page tabs, the date-range
// presets (shared by every page through the URL) and the page itself. Only owners and admins may view
// metrics (spec §5–§6); anyone else is told so and nothing is asked of the server.
import { BarChart3, Lock } from 'lucide-react';
import { NavLink, Outlet, useLocation } from 'react-router';
import { workspacePermissions } from '../../../schemas/permissions.ts';
import type { WorkspaceRole } from '../../../schemas/protocol/index.ts';
import { usePageTitle } from '../../app/title.ts';
import { useWorkspace } from '../../app/workspace-context.ts';
import { formatDate } from '../../components/messages/date-format.ts';
import { cn } from '../../components/ui/cn.ts';
import { EmptyState } from '../../components/ui/states.tsx';
import { ScreenHeader } from '../../components/workspace/screen-header.tsx';
import { RANGE_LABELS, RANGE_PRESETS } from './date-range.ts';
import { formatInstantDay } from './format.ts';
import { useMetricsRange } from './metrics-range.ts';
import { Segmented } from './segmented.tsx';

export interface MetricsPage {
  /** Under /metrics; '' is the overview. */
  path: string;
  tab: string;
  title: string;
  description: string;
}

export const METRICS_PAGES: readonly MetricsPage[] = [
  { path: '', tab: 'Overview', title: 'Overview', description: 'How the workspace is doing at a glance.' },
  {
    path: 'engaging-messages',
    tab: 'Engaging messages',
    title: 'Engaging messages',
    description: 'Messages ranked by replies, reactions and poll votes.',
  },
  {
    path: 'growing-channels',
    tab: 'Growing channels',
    title: 'Growing channels',
    description: 'Messages and members gained, against the previous period of the same length.',
  },
  {
    path: 'latest-channels',
    tab: 'Latest channels',
    title: 'Latest channels',
    description: 'Channels created most recently and how far they have come.',
  },
  {
    path: 'most-visited-channels',
    tab: 'Visited channels',
    title: 'Most visited channels',
    description: 'Where people go most. A person counts once per channel every 30 minutes.',
  },
  {
    path: 'most-visited-groups',
    tab: 'Visited groups',
    title: 'Most visited groups',
    description: 'Groups people open most. A person counts once per group every 30 minutes.',
  },
  {
    path: 'most-visited-members',
    tab: 'Visited members',
    title: 'Most visited members',
    description: 'Profiles people open most. A person counts once per profile every 30 minutes.',
  },
];

export function MetricsLayout() {
  const { institution, me } = useWorkspace();
  const allowed = workspacePermissions(me.role as WorkspaceRole).canViewMetrics;
  const base = `/client/${institution.id}/metrics`;
  const { pathname, search } = useLocation();
  const sub = pathname.slice(base.length).replace(/^\/|\/$/g, '');
  const page = METRICS_PAGES.find((p) => p.path === sub) ?? (METRICS_PAGES[0] as MetricsPage);
  usePageTitle(page.path ? `${page.title} · Metrics` : 'Metrics');

  if (!allowed) {
    return (
      <div className="flex min-h-0 flex-1 flex-col">
        <ScreenHeader title="Metrics" icon={<BarChart3 />} />
        <EmptyState icon={Lock} title="Metrics are for owners and admins">
          Ask an owner or admin of {institution.name} if you need these figures.
        </EmptyState>
      </div>
    );
  }

  return (
    <div className="flex min-h-0 flex-1 flex-col">
      <ScreenHeader title="Metrics" icon={<BarChart3 />} subtitle={institution.name} />
      <nav aria-label="Metrics pages" className="shrink-0 border-b border-line">
        <ul className="flex gap-1 overflow-x-auto px-2 md:px-4 [scrollbar-width:none]">
          {METRICS_PAGES.map((p) => (
            <li key={p.path} className="shrink-0">
              <NavLink
                to={{ pathname: p.path ? `${base}/${p.path}` : base, search }}
                end
                className={({ isActive }) =>
                  cn(
                    'relative flex h-10 items-center px-2.5 text-[13px] whitespace-nowrap text-muted outline-none hover:text-fg focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-inset',
                    isActive &&
                      'font-medium text-fg after:absolute after:inset-x-2 after:bottom-0 after:h-0.5 after:rounded-full after:bg-accent',
                  )
                }
              >
                {p.tab}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <div className="min-h-0 flex-1 overflow-y-auto">
        <div className="mx-auto flex w-full max-w-6xl flex-col gap-4 px-3 py-5 md:px-6 md:py-6">
          <PageHeading page={page} />
          <Outlet />
        </div>
      </div>
    </div>
  );
}

function PageHeading({ page }: { page: MetricsPage }) {
  const { preset, window, setPreset } = useMetricsRange();
  const span = window.fromDate
    ? preset === 'today'
      ? formatDate(new Date())
      : `${formatInstantDay(window.fromDate)} – ${formatDate(new Date())}`
    : 'Since the workspace began';
  return (
    <div className="flex flex-wrap items-end justify-between gap-3">
      <div className="min-w-0 flex-1 basis-72">
        <h2 className="text-lg font-semibold tracking-tight">{page.title}</h2>
        <p className="text-[13px] text-muted">{page.description}</p>
        <p className="mt-0.5 text-xs text-muted">{span}</p>
      </div>
      <Segmented
        label="Date range"
        options={RANGE_PRESETS.map((p) => ({ value: p, label: RANGE_LABELS[p] }))}
        value={preset}
        onChange={setPreset}
      />
    </div>
  );
}
