// Pages owned by later work (metrics): an honest empty state.
import { Construction } from 'lucide-react';
import { usePageTitle } from '../app/title.ts';
import { EmptyState } from '../components/ui/states.tsx';
import { ScreenHeader } from '../components/workspace/screen-header.tsx';

function NotAvailable({ what }: { what: string }) {
  return (
    <EmptyState icon={Construction} title="Not available yet">
      {what} is not part of this version of Lantern yet.
    </EmptyState>
  );
}

export function MetricsScreen() {
  usePageTitle('Metrics');
  return (
    <div className="flex min-h-0 flex-1 flex-col">
      <ScreenHeader title="Metrics" />
      <NotAvailable what="Workspace metrics" />
    </div>
  );
}
