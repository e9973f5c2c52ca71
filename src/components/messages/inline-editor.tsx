// Editing a message in place (spec §4 editMessage): the same editor as the composer, filled with the
// message; Enter saves, Escape cancels, and saving an empty message offers to delete instead.
import { EditorContent, useEditor } from '@tiptap/react';
import { useRef } from 'react';
import type { MessageDoc } from '../../../schemas/collections.ts';
import { notifyError } from '../../app/notify.ts';
import { editMessage } from '../../data/messages.ts';
import { useSettings } from '../../data/settings.ts';
import { Button } from '../ui/button.tsx';
import { type EditorKeyHandlers, editorExtensions, mentionsOf } from './editor-extensions.ts';

export function InlineEditor({ message, onDone }: { message: MessageDoc; onDone: () => void }) {
  const settings = useSettings();
  const handlers = useRef<EditorKeyHandlers>({ advanced: () => false, submit: () => {} });
  const editor = useEditor({
    extensions: editorExtensions({ placeholder: 'Edit message', handlers }),
    content: message.content,
    autofocus: 'end',
    editorProps: {
      attributes: {
        role: 'textbox',
        'aria-label': 'Edit message',
        'aria-multiline': 'true',
        class:
          'composer-editor message-body max-h-60 overflow-y-auto py-1 text-[14px] leading-6 outline-none',
      },
    },
  });

  function save() {
    if (!editor) return;
    const html = editor.getHTML();
    if (editor.isEmpty || html === message.content) {
      onDone();
      return;
    }
    onDone();
    void editMessage(message.genId, { content: html, mentions: mentionsOf(editor.getJSON()) }).catch(
      notifyError,
    );
  }

  handlers.current = {
    advanced: () => settings.showAdvancedKeyboard,
    submit: save,
    escape: () => {
      onDone();
      return true;
    },
  };

  return (
    <div className="mt-0.5 rounded-lg border border-accent bg-surface px-3 pt-1 pb-2 ring-2 ring-ring">
      {editor ? <EditorContent editor={editor} /> : null}
      <div className="mt-1 flex items-center gap-2">
        <p className="mr-auto text-[11px] text-faint">Escape to cancel · Enter to save</p>
        <Button size="xs" variant="ghost" onClick={onDone}>
          Cancel
        </Button>
        <Button size="xs" onClick={save}>
          Save
        </Button>
      </div>
    </div>
  );
}
