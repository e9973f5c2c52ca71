// The sidebar's channels, arranged in the person's sections: create, rename, delete and reorder sections
// (a header's drag, its menu, Alt+Shift+↑/↓), move channels between them (drag and drop or the row menu),
// collapse them. Changes go to the store first
// and reach the server when it can be reached, so all of this works offline.
import { Plus, Search } from 'lucide-react';
import { type FormEvent, memo, useId, useLayoutEffect, useState } from 'react';
import { errorMessage, notifyError } from '../../app/notify.ts';
import { useWorkspace } from '../../app/workspace-context.ts';
import {
  createSection,
  deleteSection,
  moveChannelToSection,
  renameSection,
  reorderSections,
  setSectionCollapsed,
  useSections,
} from '../../data/sections.ts';
import {
  DEFAULT_SECTION_NAME,
  PLACEHOLDER_SECTION_ID,
  placeSection,
  stepSection,
} from '../../store/sections.ts';
import { Button } from '../ui/button.tsx';
import { Dialog } from '../ui/dialog.tsx';
import { IconAction } from '../ui/icon-action.tsx';
import { FieldMessage, Input, Label } from '../ui/input.tsx';
import { type SectionLike, SidebarSectionBlock } from './sidebar-section.tsx';

type SectionDialog =
  | { kind: 'create'; channelId?: string }
  | { kind: 'rename'; section: SectionLike }
  | { kind: 'delete'; section: SectionLike }
  | null;

/** Memoised: the sidebar redraws for its own reasons (an unread count elsewhere), these only for theirs. */
export const ChannelSections = memo(function ChannelSections({
  base,
  hasChannels,
  openChannelId,
  unread,
  onBrowse,
  onCreateChannel,
}: {
  base: string;
  /** False once the joined list is known to be empty (shows "Browse channels"). */
  hasChannels: boolean;
  openChannelId: string | undefined;
  /** The caller's unread count per channel. */
  unread: ReadonlyMap<string, number>;
  onBrowse: () => void;
  onCreateChannel: () => void;
}) {
  const { institution } = useWorkspace();
  const layout = useSections(institution.id);
  const unreadOf = (channelId: string) => unread.get(channelId) ?? 0;
  const [dialog, setDialog] = useState<SectionDialog>(null);
  const arranged = layout?.sections ?? [];
  const allSections = arranged.map((a) => a.section);
  const order = allSections.map((s) => s.id);
  // Said to screen readers after a section moves ("Projects moved to 1 of 3").
  const [announcement, setAnnouncement] = useState('');
  // The header moved with the keyboard: it keeps focus once the sidebar shows the new order.
  const [focusAfterMove, setFocusAfterMove] = useState<string | null>(null);
  const orderKey = order.join(',');

  // Before the paint, in the commit that moved it: a key pressed in between would go to the page.
  useLayoutEffect(() => {
    if (!focusAfterMove || !orderKey) return;
    // Moving a node in the DOM drops its focus; give it back to the same header.
    const header = document.querySelector<HTMLElement>(
      `[data-section-id="${CSS.escape(focusAfterMove)}"] button[aria-expanded]`,
    );
    if (header && document.activeElement !== header) header.focus();
  }, [focusAfterMove, orderKey]);

  // The new order is made from the stored one, after any move still being stored: a key pressed twice
  // before the sidebar has drawn the first move moves the section twice.
  function reorder(sectionId: string, arrange: (shown: readonly string[]) => string[]) {
    if (order.includes(PLACEHOLDER_SECTION_ID)) return;
    const name = allSections.find((s) => s.id === sectionId)?.name ?? 'Section';
    reorderSections(institution.id, arrange)
      .then((next) => {
        if (next) setAnnouncement(`${name} moved to ${next.indexOf(sectionId) + 1} of ${next.length}`);
      })
      .catch(notifyError);
  }

  function move(channelId: string, toSectionId: string, index?: number) {
    if (toSectionId === PLACEHOLDER_SECTION_ID) return;
    moveChannelToSection(institution.id, channelId, toSectionId, index).catch(notifyError);
  }

  const actions = {
    onToggle: (sectionId: string, isCollapsed: boolean) =>
      void setSectionCollapsed(institution.id, sectionId, isCollapsed).catch(notifyError),
    onRename: (section: SectionLike) => setDialog({ kind: 'rename', section }),
    onDelete: (section: SectionLike) => setDialog({ kind: 'delete', section }),
    onCreate: () => setDialog({ kind: 'create' }),
    onCreateWith: (channelId: string) => setDialog({ kind: 'create', channelId }),
    onMove: move,
    onPlaceSection: (sectionId: string, beforeId: string | null) =>
      reorder(sectionId, (shown) => placeSection(shown, sectionId, beforeId)),
    onStepSection: (sectionId: string, step: -1 | 1) => {
      setFocusAfterMove(sectionId);
      reorder(sectionId, (shown) => stepSection(shown, sectionId, step));
    },
  };

  return (
    <>
      <p className="sr-only" aria-live="polite">
        {announcement}
      </p>
      {arranged.map(({ section, channels: list, collapsed }, index) => (
        <SidebarSectionBlock
          key={section.id}
          section={section}
          place={{ index, count: arranged.length }}
          nextSectionId={order[index + 1] ?? null}
          channels={list}
          allSections={allSections}
          collapsed={collapsed}
          base={base}
          openChannelId={openChannelId}
          unreadOf={unreadOf}
          actions={actions}
          headerActions={
            section.isDefault ? (
              <>
                <IconAction label="Browse channels" onClick={onBrowse}>
                  <Search />
                </IconAction>
                <IconAction label="Create channel" onClick={onCreateChannel}>
                  <Plus />
                </IconAction>
              </>
            ) : null
          }
          emptyHint={
            section.isDefault && !hasChannels ? (
              <button
                type="button"
                onClick={onBrowse}
                className="flex h-8 w-full items-center gap-2 rounded-md px-2 text-[13px] text-muted hover:bg-hover hover:text-fg"
              >
                <Plus className="size-3.5" aria-hidden />
                Browse channels
              </button>
            ) : null
          }
        />
      ))}
      <SectionNameDialog
        key={dialog?.kind === 'rename' ? dialog.section.id : (dialog?.kind ?? 'none')}
        open={dialog?.kind === 'create' || dialog?.kind === 'rename'}
        initial={dialog?.kind === 'rename' ? dialog.section.name : ''}
        title={dialog?.kind === 'rename' ? 'Rename section' : 'New section'}
        submitLabel={dialog?.kind === 'rename' ? 'Save' : 'Create section'}
        onOpenChange={(open) => !open && setDialog(null)}
        onSubmit={async (name) => {
          if (dialog?.kind === 'rename') await renameSection(institution.id, dialog.section.id, name);
          else if (dialog?.kind === 'create') {
            await createSection(institution.id, name, dialog.channelId ? [dialog.channelId] : []);
          }
          setDialog(null);
        }}
      />
      <Dialog
        open={dialog?.kind === 'delete'}
        onOpenChange={(open) => !open && setDialog(null)}
        title={dialog?.kind === 'delete' ? `Delete “${dialog.section.name}”?` : 'Delete section'}
        description={`Its channels move back to ${allSections.find((s) => s.isDefault)?.name ?? DEFAULT_SECTION_NAME}. You stay in every channel.`}
      >
        <div className="flex justify-end gap-2 pt-3">
          <Button variant="ghost" onClick={() => setDialog(null)}>
            Cancel
          </Button>
          <Button
            variant="destructive"
            onClick={() => {
              if (dialog?.kind === 'delete') {
                void deleteSection(institution.id, dialog.section.id).catch(notifyError);
              }
              setDialog(null);
            }}
          >
            Delete section
          </Button>
        </div>
      </Dialog>
    </>
  );
});

function SectionNameDialog({
  open,
  initial,
  title,
  submitLabel,
  onOpenChange,
  onSubmit,
}: {
  open: boolean;
  initial: string;
  title: string;
  submitLabel: string;
  onOpenChange: (open: boolean) => void;
  onSubmit: (name: string) => Promise<void>;
}) {
  const [name, setName] = useState(initial);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const id = useId();

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!name.trim()) return setError('Name cannot be empty');
    setBusy(true);
    setError(null);
    try {
      await onSubmit(name.trim());
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title={title}
      description="Sections are yours alone: they arrange your sidebar, not anyone else's."
    >
      <form onSubmit={submit} className="flex flex-col gap-4 pt-2" noValidate>
        <div className="flex flex-col gap-1.5">
          <Label htmlFor={`${id}-name`}>Section name</Label>
          <Input
            id={`${id}-name`}
            value={name}
            onChange={(e) => setName(e.target.value)}
            placeholder="e.g. Projects"
            maxLength={40}
            autoFocus
            autoComplete="off"
            aria-invalid={error ? true : undefined}
          />
          {error ? <FieldMessage error>{error}</FieldMessage> : null}
        </div>
        <div className="flex justify-end gap-2">
          <Button variant="ghost" onClick={() => onOpenChange(false)}>
            Cancel
          </Button>
          <Button type="submit" loading={busy}>
            {submitLabel}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
