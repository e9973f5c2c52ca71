// The composer's link editor: a small form anchored to the Link button (or opened with Ctrl+Shift+U) for
// adding a link, or changing or removing the one under the cursor. The editor keeps its selection
// while the form has focus, so the link lands on the text that was selected.
import type { Editor } from '@tiptap/core';
import { Popover } from 'radix-ui';
import { type FormEvent, type ReactNode, useId, useState } from 'react';
import { Button } from '../ui/button.tsx';
import { FieldMessage, Input, Label } from '../ui/input.tsx';
import { parseLinkAddress } from './link-address.ts';

export function LinkPopover({
  editor,
  open,
  onOpenChange,
  anchor,
}: {
  editor: Editor;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  anchor: ReactNode;
}) {
  return (
    <Popover.Root open={open} onOpenChange={onOpenChange}>
      <Popover.Anchor asChild>{anchor}</Popover.Anchor>
      <Popover.Portal>
        <Popover.Content
          side="top"
          align="start"
          sideOffset={6}
          aria-label="Link"
          className="z-50 w-80 max-w-[calc(100vw-16px)] rounded-lg border border-line bg-surface p-3 shadow-xl outline-none"
          onCloseAutoFocus={(e) => {
            e.preventDefault();
            editor.commands.focus();
          }}
        >
          {/* Mounted on open only, so each opening starts from the editor's current selection. */}
          <LinkForm editor={editor} onDone={() => onOpenChange(false)} />
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}

function LinkForm({ editor, onDone }: { editor: Editor; onDone: () => void }) {
  const id = useId();
  const editing = editor.isActive('link');
  const needsText = !editing && editor.state.selection.empty;
  const [address, setAddress] = useState<string>(
    editing ? String(editor.getAttributes('link').href ?? '') : '',
  );
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);

  function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = parseLinkAddress(address);
    if ('error' in parsed) return setError(parsed.error);
    const { href } = parsed;
    const chain = editor.chain().focus();
    if (needsText) {
      const label = text.trim() || address.trim();
      chain.insertContent({ type: 'text', text: label, marks: [{ type: 'link', attrs: { href } }] }).run();
    } else {
      chain.extendMarkRange('link').setLink({ href }).run();
    }
    onDone();
  }

  function remove() {
    editor.chain().focus().extendMarkRange('link').unsetLink().run();
    onDone();
  }

  return (
    <form onSubmit={submit} noValidate className="flex flex-col gap-3">
      <div className="flex flex-col gap-1.5">
        <Label htmlFor={`${id}-address`}>Link address</Label>
        <Input
          id={`${id}-address`}
          value={address}
          onChange={(e) => {
            setAddress(e.target.value);
            setError(null);
          }}
          placeholder="https://example.com"
          inputMode="url"
          autoComplete="url"
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
        />
        {error ? (
          <FieldMessage id={`${id}-error`} error>
            {error}
          </FieldMessage>
        ) : null}
      </div>
      {needsText ? (
        <div className="flex flex-col gap-1.5">
          <Label htmlFor={`${id}-text`}>Text to show</Label>
          <Input
            id={`${id}-text`}
            value={text}
            onChange={(e) => setText(e.target.value)}
            placeholder="Optional: the address is shown otherwise"
          />
        </div>
      ) : null}
      <div className="flex items-center justify-end gap-2">
        {editing ? (
          <Button type="button" size="sm" variant="ghost" className="mr-auto text-danger" onClick={remove}>
            Remove link
          </Button>
        ) : null}
        <Button type="button" size="sm" variant="outline" onClick={onDone}>
          Cancel
        </Button>
        <Button type="submit" size="sm">
          {editing ? 'Save' : 'Add link'}
        </Button>
      </div>
    </form>
  );
}
