// Workspace admins switch link previews on or off for everyone (decision 0053). On by default: a link
// then shows its page's title, description and picture, fetched by our server, never by the reader's
// browser. Off: no preview is fetched or shown, and previews already kept on devices are hidden.
import { useState } from 'react';
import { notifyError } from '../../app/notify.ts';
import { setLinkPreviews, useLinkPreviewsEnabled } from '../../data/link-previews.ts';
import { SwitchRow } from '../ui/switch.tsx';

export function LinkPreviewSetting({ institutionId }: { institutionId: string }) {
  const enabled = useLinkPreviewsEnabled(institutionId);
  const [saving, setSaving] = useState(false);
  if (enabled === undefined) return null;
  return (
    <section aria-label="Link previews">
      <h2 className="mb-1 text-xs font-semibold tracking-wide text-muted uppercase">Link previews</h2>
      <div className="rounded-lg border border-line bg-surface px-4">
        <SwitchRow
          label="Show link previews"
          description="Under a message with a link, show the page's title, description and picture. Lantern's server fetches them, so readers' browsers never contact the linked site. Applies to everyone in this workspace."
          checked={enabled}
          disabled={saving}
          onCheckedChange={(next) => {
            setSaving(true);
            setLinkPreviews(institutionId, next)
              .catch(notifyError)
              .finally(() => setSaving(false));
          }}
        />
      </div>
    </section>
  );
}
