// TipTap set-up shared by the composer and the inline message editor: the formatting of spec §4
// (bold, italic, strike, code, code block, lists, links, quotes), mention chips stored as
// <span data-type="mention" data-id class="mention">@name</span>, and the send/new-line keys.
import { type Editor, Extension, type JSONContent } from '@tiptap/core';
import Mention from '@tiptap/extension-mention';
import Placeholder from '@tiptap/extension-placeholder';
import StarterKit from '@tiptap/starter-kit';
import type { SuggestionKeyDownProps, SuggestionProps } from '@tiptap/suggestion';
import type { Mention as MentionRef } from '../../../schemas/protocol/index.ts';

export type MentionType = MentionRef['type'];

export interface MentionItem {
  id: string;
  label: string;
  mentionType: MentionType;
}

/** Live callbacks, read at key time so the editor (made once) always calls the newest closures. */
export interface EditorKeyHandlers {
  /** Enter without Shift normally sends; with the advanced keyboard setting it is the other way round. */
  advanced: () => boolean;
  submit: () => void;
  /** Up arrow in an empty editor (the composer edits one's last message). */
  upInEmpty?: () => boolean;
  escape?: () => boolean;
}

export interface MentionBridge {
  open: (state: { query: string; command: (item: MentionItem) => void; rect: DOMRect | null }) => void;
  close: () => void;
  keyDown: (event: KeyboardEvent) => boolean;
}

/** The usual Enter of a rich editor: new line in code, new list item, otherwise a new paragraph. */
export function breakLine(editor: Editor): boolean {
  return editor.commands.first(({ commands }) => [
    () => commands.newlineInCode(),
    () => commands.splitListItem('listItem'),
    () => commands.createParagraphNear(),
    () => commands.liftEmptyBlock(),
    () => commands.splitBlock(),
  ]);
}

function sendKeys(handlers: { current: EditorKeyHandlers }) {
  return Extension.create({
    name: 'sendKeys',
    // Above the editor's own Enter (StarterKit, 100) and below the mention suggestion (200), so Enter
    // picks a suggestion while the list is open and sends otherwise.
    priority: 150,
    addKeyboardShortcuts() {
      const plain = () => {
        const h = handlers.current;
        if (h.advanced()) return breakLine(this.editor);
        h.submit();
        return true;
      };
      const shifted = () => {
        const h = handlers.current;
        if (h.advanced()) {
          h.submit();
          return true;
        }
        return breakLine(this.editor);
      };
      const submit = () => {
        handlers.current.submit();
        return true;
      };
      const up = () => (this.editor.isEmpty ? (handlers.current.upInEmpty?.() ?? false) : false);
      const dismiss = () => handlers.current.escape?.() ?? false;
      return {
        Enter: plain,
        'Shift-Enter': shifted,
        'Mod-Enter': submit,
        ArrowUp: up,
        Escape: dismiss,
      };
    },
  });
}

const MentionChip = Mention.extend({
  priority: 200,
  addAttributes() {
    return {
      ...this.parent?.(),
      mentionType: {
        default: 'member',
        parseHTML: (el: HTMLElement) => el.getAttribute('data-mention-type') ?? 'member',
        renderHTML: (attrs: { mentionType?: string }) => ({ 'data-mention-type': attrs.mentionType }),
      },
      label: {
        default: null,
        parseHTML: (el: HTMLElement) =>
          el.getAttribute('data-label') ?? (el.textContent ?? '').replace(/^@/, ''),
        renderHTML: (attrs: { label?: string | null }) => (attrs.label ? { 'data-label': attrs.label } : {}),
      },
    };
  },
});

export function editorExtensions(options: {
  placeholder: string;
  handlers: { current: EditorKeyHandlers };
  mentions?: { current: MentionBridge };
}) {
  const { mentions } = options;
  return [
    StarterKit.configure({
      heading: false,
      horizontalRule: false,
      link: { openOnClick: false, autolink: true, defaultProtocol: 'https' },
    }),
    Placeholder.configure({ placeholder: options.placeholder }),
    sendKeys(options.handlers),
    ...(mentions
      ? [
          MentionChip.configure({
            HTMLAttributes: { class: 'mention' },
            renderText: ({ node }) => `@${node.attrs.label ?? node.attrs.id}`,
            suggestion: {
              char: '@',
              items: () => [],
              command: ({ editor, range, props }) => {
                const item = props as unknown as MentionItem;
                editor
                  .chain()
                  .focus()
                  .insertContentAt(range, [
                    {
                      type: 'mention',
                      attrs: { id: item.id, label: item.label, mentionType: item.mentionType },
                    },
                    { type: 'text', text: ' ' },
                  ])
                  .run();
              },
              render: () => {
                const relay = (p: SuggestionProps) =>
                  mentions.current.open({
                    query: p.query,
                    command: (item) => p.command(item as never),
                    rect: p.clientRect?.() ?? null,
                  });
                return {
                  onStart: relay,
                  onUpdate: relay,
                  onExit: () => mentions.current.close(),
                  onKeyDown: (p: SuggestionKeyDownProps) => mentions.current.keyDown(p.event),
                };
              },
            },
          }),
        ]
      : []),
  ];
}

/** The mentions in a document, once each, in the order they appear (stored structurally on the message). */
export function mentionsOf(doc: JSONContent): MentionRef[] {
  const found: MentionRef[] = [];
  const seen = new Set<string>();
  const walk = (node: JSONContent) => {
    if (node.type === 'mention' && typeof node.attrs?.id === 'string') {
      const type = (node.attrs.mentionType ?? 'member') as MentionType;
      const key = `${type}:${node.attrs.id}`;
      if (!seen.has(key)) {
        seen.add(key);
        found.push({ type, id: node.attrs.id });
      }
    }
    for (const child of node.content ?? []) walk(child);
  };
  walk(doc);
  return found;
}
