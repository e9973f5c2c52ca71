// Pages owned by later work (metrics, account deletion): an honest empty state.
import { Construction } from 'lucide-react';
import { AuthFrame } from '../app/auth-layout.tsx';
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

export function AccountDeletionScreen() {
  usePageTitle('Account deletion');
  return (
    <AuthFrame>
      <div className="rounded-xl border border-line bg-surface shadow-sm">
        <NotAvailable what="Deleting an account from this page" />
      </div>
    </AuthFrame>
  );
}
