// The composer's formatting buttons (spec §4): bold, italic, strike, code, link, lists, quote, code
// block. Each shows its shortcut on hover and its pressed state; Link opens the link form.
import type { Editor } from '@tiptap/core';
import { useEditorState } from '@tiptap/react';
import {
  Bold,
  Code,
  Italic,
  Link2,
  List,
  ListOrdered,
  type LucideIcon,
  SquareCode,
  Strikethrough,
  TextQuote,
} from 'lucide-react';
import { memo, useEffect, useState } from 'react';
import { cn } from '../ui/cn.ts';
import { LinkPopover } from './link-popover.tsx';

interface Tool {
  name: string;
  shortcut: string;
  icon: LucideIcon;
  mark: string;
  /** Absent for Link, which opens its form instead. */
  run?: (editor: Editor) => void;
}

const TOOLS: Tool[] = [
  {
    name: 'Bold',
    shortcut: 'Ctrl+B',
    icon: Bold,
    mark: 'bold',
    run: (e) => e.chain().focus().toggleBold().run(),
  },
  {
    name: 'Italic',
    shortcut: 'Ctrl+I',
    icon: Italic,
    mark: 'italic',
    run: (e) => e.chain().focus().toggleItalic().run(),
  },
  {
    name: 'Strikethrough',
    shortcut: 'Ctrl+Shift+S',
    icon: Strikethrough,
    mark: 'strike',
    run: (e) => e.chain().focus().toggleStrike().run(),
  },
  {
    name: 'Code',
    shortcut: 'Ctrl+E',
    icon: Code,
    mark: 'code',
    run: (e) => e.chain().focus().toggleCode().run(),
  },
  { name: 'Link', shortcut: 'Ctrl+Shift+U', icon: Link2, mark: 'link' },
  {
    name: 'Bulleted list',
    shortcut: 'Ctrl+Shift+8',
    icon: List,
    mark: 'bulletList',
    run: (e) => e.chain().focus().toggleBulletList().run(),
  },
  {
    name: 'Numbered list',
    shortcut: 'Ctrl+Shift+7',
    icon: ListOrdered,
    mark: 'orderedList',
    run: (e) => e.chain().focus().toggleOrderedList().run(),
  },
  {
    name: 'Quote',
    shortcut: 'Ctrl+Shift+B',
    icon: TextQuote,
    mark: 'blockquote',
    run: (e) => e.chain().focus().toggleBlockquote().run(),
  },
  {
    name: 'Code block',
    shortcut: 'Ctrl+Alt+C',
    icon: SquareCode,
    mark: 'codeBlock',
    run: (e) => e.chain().focus().toggleCodeBlock().run(),
  },
];

/**
 * Memoised: the composer re-renders with every keystroke (its empty state, the draft being saved), and
 * this toolbar's icons and link popover cost more than the rest of it on a slow phone. It follows the
 * editor through its own subscription (the marks at the caret) instead.
 */
export const ComposerToolbar = memo(function ComposerToolbar({
  editor,
  className,
}: {
  editor: Editor;
  className?: string;
}) {
  const active = useEditorState({
    editor,
    selector: ({ editor: e }) => TOOLS.map((t) => e.isActive(t.mark)),
  });
  const [linkOpen, setLinkOpen] = useState(false);

  // Ctrl+Shift+U (⌘⇧U) in the editor opens the link form, as in Slack: Ctrl+K is the quick switcher's.
  useEffect(() => {
    if (editor.isDestroyed) return;
    const dom = editor.view.dom;
    const onKeyDown = (event: KeyboardEvent) => {
      if (
        (event.ctrlKey || event.metaKey) &&
        event.shiftKey &&
        !event.altKey &&
        event.key.toLowerCase() === 'u'
      ) {
        event.preventDefault();
        setLinkOpen(true);
      }
    };
    dom.addEventListener('keydown', onKeyDown);
    return () => dom.removeEventListener('keydown', onKeyDown);
  }, [editor]);

  return (
    <div role="toolbar" aria-label="Formatting" className={cn('flex items-center gap-0.5', className)}>
      {TOOLS.map((tool, index) => {
        const button = (
          <button
            key={tool.name}
            type="button"
            title={tool.shortcut ? `${tool.name} (${tool.shortcut})` : tool.name}
            aria-label={tool.name}
            aria-pressed={active[index] ?? false}
            onMouseDown={(e) => e.preventDefault()}
            onClick={() => (tool.run ? tool.run(editor) : setLinkOpen((open) => !open))}
            className={cn(
              'flex size-7 items-center justify-center rounded text-muted hover:bg-hover hover:text-fg',
              active[index] && 'bg-selected text-fg',
              (index === 4 || index === 6) && 'mr-1.5',
            )}
          >
            <tool.icon className="size-3.5" aria-hidden />
          </button>
        );
        return tool.run ? (
          button
        ) : (
          <LinkPopover
            key={tool.name}
            editor={editor}
            open={linkOpen}
            onOpenChange={setLinkOpen}
            anchor={button}
          />
        );
      })}
    </div>
  );
});
