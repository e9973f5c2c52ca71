// The composer's row of actions before its send button: more (upload, poll), attach, emoji, and the
// formatting toggle on a phone. Memoised with stable callbacks: the composer re-renders as a person types
// (its empty state, the draft being saved), and these buttons' menus and popovers cost more than the rest
// of it on a slow phone; none of them changes with what is typed.
import type { Editor } from '@tiptap/core';
import { Paperclip, Plus, Smile, Type, Vote } from 'lucide-react';
import { memo, useRef } from 'react';
import { cn } from '../ui/cn.ts';
import { Menu, MenuContent, MenuItem, MenuTrigger } from '../ui/menu.tsx';
import { EmojiPicker } from './emoji-picker.tsx';

const iconButton =
  'flex size-7 shrink-0 items-center justify-center rounded-md text-muted hover:bg-hover hover:text-fg';

export const ComposerActions = memo(function ComposerActions({
  editor,
  showToolbar,
  onToggleToolbar,
  onChooseFiles,
  onCreatePoll,
}: {
  editor: Editor;
  showToolbar: boolean;
  onToggleToolbar: () => void;
  onChooseFiles: (files: File[]) => void;
  onCreatePoll: () => void;
}) {
  const fileInput = useRef<HTMLInputElement>(null);
  return (
    <>
      <Menu>
        <MenuTrigger asChild>
          <button type="button" aria-label="More actions" className={iconButton}>
            <Plus className="size-4" aria-hidden />
          </button>
        </MenuTrigger>
        <MenuContent align="start" side="top">
          <MenuItem icon={<Paperclip />} onSelect={() => fileInput.current?.click()}>
            Upload a file
          </MenuItem>
          <MenuItem icon={<Vote />} onSelect={onCreatePoll}>
            Create a poll
          </MenuItem>
        </MenuContent>
      </Menu>
      <button
        type="button"
        aria-label="Attach files"
        title="Attach files"
        className={iconButton}
        onClick={() => fileInput.current?.click()}
      >
        <Paperclip className="size-4" aria-hidden />
      </button>
      <input
        ref={fileInput}
        type="file"
        multiple
        hidden
        aria-hidden
        tabIndex={-1}
        onChange={(e) => {
          const files = Array.from(e.target.files ?? []);
          e.target.value = '';
          if (files.length > 0) onChooseFiles(files);
        }}
      />
      <EmojiPicker
        onPick={(char) => editor.chain().focus().insertContent(char).run()}
        trigger={
          <button type="button" aria-label="Insert emoji" title="Emoji" className={iconButton}>
            <Smile className="size-4" aria-hidden />
          </button>
        }
      />
      <button
        type="button"
        aria-label="Show formatting"
        aria-pressed={showToolbar}
        onClick={onToggleToolbar}
        className={cn(iconButton, 'md:hidden', showToolbar && 'bg-selected text-fg')}
      >
        <Type className="size-4" aria-hidden />
      </button>
    </>
  );
});
