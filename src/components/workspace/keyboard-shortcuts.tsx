// The workspace's keyboard shortcuts (issue 15 item 5), in one place with the dialog that lists them ("?").
// Ctrl/Cmd+K opens the quick switcher from anywhere, the composer included (the composer's link form moved
// to Ctrl+Shift+U, as in Slack); Alt+↑/↓ walk the sidebar's conversations in the order shown. A skip button
// is a channel page's first tab stop. Escape needs no "mark as read" here: a channel on screen is read by
// being there (its count never rises while it is open), so Escape only closes what is open, as everywhere.
import { lazy, Suspense, useEffect, useState } from 'react';
import { useMatch, useNavigate } from 'react-router';
import { loadChunk } from '../../app/reload-guard.ts';
import { focusComposer } from '../messages/composer-focus.ts';
import { Dialog } from '../ui/dialog.tsx';

// Loaded when first opened (decision 0067).
const QuickSwitcher = lazy(async () => ({
  default: (await loadChunk(() => import('./quick-switcher.tsx'))).QuickSwitcher,
}));

const MOD = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform) ? '⌘' : 'Ctrl';

export const SHORTCUTS: { keys: string[]; what: string }[] = [
  { keys: [MOD, 'K'], what: 'Jump to a channel or person' },
  { keys: ['Alt', '↑'], what: 'Previous conversation in the sidebar' },
  { keys: ['Alt', '↓'], what: 'Next conversation in the sidebar' },
  { keys: ['Alt', 'Shift', '↑ ↓'], what: 'Move the focused sidebar section up or down' },
  { keys: ['Esc'], what: 'Close a dialog, menu or panel' },
  { keys: ['Enter'], what: 'Send (Shift + Enter for a new line, or the other way round in Settings)' },
  { keys: ['↑'], what: 'Edit your last message, from an empty composer' },
  { keys: ['↑ ↓'], what: 'Previous or next message, from a focused message (Page Up and Page Down too)' },
  { keys: ['→'], what: 'The actions of the focused message' },
  { keys: ['Ctrl', 'End'], what: 'From a message to the composer' },
  { keys: [MOD, 'Shift', 'U'], what: 'Add a link in the composer' },
  { keys: ['Alt', 'T'], what: 'Move to the notifications on screen' },
  { keys: ['?'], what: 'Show these shortcuts' },
];

function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName);
}

/** Something is open over the page (a dialog, a menu, a list of suggestions): its keys are its own. */
function layerOpen(): boolean {
  return (
    document.querySelector('[role="dialog"], [role="alertdialog"], [role="menu"], [role="listbox"]') !== null
  );
}

/** The sidebar's conversation links, in the order a person sees them. */
function sidebarConversations(): HTMLAnchorElement[] {
  return [
    ...document.querySelectorAll<HTMLAnchorElement>('nav[aria-label="Workspace"] a[href*="/channel/"]'),
  ];
}

export function KeyboardShortcuts() {
  // The layout's own params stop at the workspace: the open channel comes from the URL.
  const channelId = useMatch('/client/:clientId/channel/:channelId')?.params.channelId;
  const navigate = useNavigate();
  const [switcher, setSwitcher] = useState(false);
  const [help, setHelp] = useState(false);

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.isComposing) return;
      const mod = event.ctrlKey || event.metaKey;
      if (mod && !event.shiftKey && !event.altKey && event.key.toLowerCase() === 'k') {
        event.preventDefault();
        setHelp(false);
        setSwitcher((open) => !open);
        return;
      }
      if (event.altKey && !mod && (event.key === 'ArrowUp' || event.key === 'ArrowDown')) {
        if (layerOpen()) return;
        const links = sidebarConversations();
        if (links.length === 0) return;
        event.preventDefault();
        const here = links.findIndex(
          (a) => channelId !== undefined && a.pathname.endsWith(`/channel/${channelId}`),
        );
        const step = event.key === 'ArrowDown' ? 1 : -1;
        const next = links[here === -1 ? 0 : (here + step + links.length) % links.length];
        if (next) void navigate(next.pathname);
        return;
      }
      if (event.key === '?' && !mod && !isTyping(event.target) && !layerOpen()) {
        event.preventDefault();
        setHelp(true);
        return;
      }
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [channelId, navigate]);

  return (
    <>
      {channelId ? <SkipToComposer /> : null}
      {switcher ? (
        <Suspense fallback={null}>
          <QuickSwitcher open onOpenChange={setSwitcher} />
        </Suspense>
      ) : null}
      <Dialog open={help} onOpenChange={setHelp} title="Keyboard shortcuts">
        <dl className="flex flex-col divide-y divide-line">
          {SHORTCUTS.map((s) => (
            <div key={s.what} className="flex items-center justify-between gap-4 py-2">
              <dt className="text-[13px]">{s.what}</dt>
              <dd className="flex shrink-0 gap-1">
                {s.keys.map((k) => (
                  <kbd
                    key={k}
                    className="min-w-6 rounded border border-line-strong bg-surface-2 px-1.5 py-0.5 text-center font-sans text-[11px] font-medium"
                  >
                    {k}
                  </kbd>
                ))}
              </dd>
            </div>
          ))}
        </dl>
      </Dialog>
    </>
  );
}

/** The first tab stop of a channel's page: straight to writing, past the sidebar and the header. */
function SkipToComposer() {
  return (
    <button
      type="button"
      onClick={focusComposer}
      className="sr-only focus:not-sr-only focus:fixed focus:top-3 focus:left-3 focus:z-50 focus:rounded-md focus:bg-primary focus:px-3 focus:py-2 focus:text-sm focus:font-medium focus:text-primary-fg focus:shadow-lg"
    >
      Skip to the composer
    </button>
  );
}
