// A small curated emoji set for the picker and reactions: enough for everyday chat, no dependency.
// Each entry: the character and the words it is found by.
export interface EmojiEntry {
  char: string;
  name: string;
  keywords: string;
}

const RAW: [string, string, string][] = [
  ['👍', 'thumbs up', '+1 yes ok like agree'],
  ['👎', 'thumbs down', '-1 no dislike'],
  ['❤️', 'red heart', 'love like'],
  ['😂', 'tears of joy', 'laugh lol funny'],
  ['🎉', 'party popper', 'celebrate congrats tada'],
  ['🙏', 'folded hands', 'thanks please pray'],
  ['👀', 'eyes', 'look watching seen'],
  ['✅', 'check mark', 'done yes complete'],
  ['🔥', 'fire', 'hot lit great'],
  ['🚀', 'rocket', 'ship launch fast'],
  ['😀', 'grinning', 'smile happy'],
  ['😃', 'smiley', 'smile happy'],
  ['😄', 'smile', 'happy joy'],
  ['😁', 'grin', 'happy teeth'],
  ['😅', 'sweat smile', 'relief phew'],
  ['🤣', 'rolling on the floor', 'laugh rofl'],
  ['🙂', 'slight smile', 'ok fine'],
  ['😉', 'wink', 'joke'],
  ['😊', 'blush', 'happy shy'],
  ['😍', 'heart eyes', 'love'],
  ['🤩', 'star struck', 'wow amazing'],
  ['😘', 'kiss', 'love'],
  ['😎', 'cool', 'sunglasses'],
  ['🤔', 'thinking', 'hmm wonder'],
  ['🤨', 'raised eyebrow', 'doubt skeptical'],
  ['😐', 'neutral', 'meh'],
  ['🙄', 'eye roll', 'whatever'],
  ['😬', 'grimace', 'awkward oops'],
  ['😴', 'sleeping', 'tired zzz'],
  ['😷', 'mask', 'sick'],
  ['🤯', 'mind blown', 'wow shock'],
  ['😢', 'cry', 'sad tear'],
  ['😭', 'sob', 'sad cry'],
  ['😡', 'angry', 'mad'],
  ['😱', 'scream', 'shock fear'],
  ['🥳', 'partying face', 'celebrate birthday'],
  ['🥲', 'smile tear', 'bittersweet'],
  ['🤗', 'hug', 'hugs'],
  ['🤝', 'handshake', 'deal agree'],
  ['👏', 'clap', 'applause bravo'],
  ['🙌', 'raised hands', 'hooray celebrate'],
  ['💪', 'muscle', 'strong'],
  ['👋', 'wave', 'hello hi bye'],
  ['✌️', 'victory', 'peace'],
  ['👌', 'ok hand', 'perfect fine'],
  ['🤞', 'crossed fingers', 'luck hope'],
  ['👉', 'point right', 'this'],
  ['☝️', 'point up', 'this above'],
  ['💯', 'hundred', 'perfect score'],
  ['⭐', 'star', 'favourite'],
  ['✨', 'sparkles', 'shiny new'],
  ['💡', 'light bulb', 'idea'],
  ['📌', 'pushpin', 'pin'],
  ['📎', 'paperclip', 'attachment'],
  ['📅', 'calendar', 'date schedule'],
  ['⏰', 'alarm clock', 'time'],
  ['☕', 'coffee', 'break'],
  ['🍕', 'pizza', 'food lunch'],
  ['🍰', 'cake', 'birthday'],
  ['🌟', 'glowing star', 'great'],
  ['☀️', 'sun', 'sunny weather'],
  ['🌧️', 'rain', 'weather'],
  ['🌈', 'rainbow', 'hope'],
  ['🏆', 'trophy', 'win'],
  ['⚠️', 'warning', 'caution'],
  ['❌', 'cross mark', 'no wrong'],
  ['❓', 'question', 'what'],
  ['❗', 'exclamation', 'important'],
  ['💬', 'speech balloon', 'comment chat'],
  ['📝', 'memo', 'note write'],
  ['🐛', 'bug', 'issue'],
  ['🔧', 'wrench', 'fix tool'],
  ['🧪', 'test tube', 'test experiment'],
  ['📦', 'package', 'ship box'],
  ['🔒', 'lock', 'private secure'],
  ['🕯️', 'candle', 'lantern light'],
];

export const EMOJI: readonly EmojiEntry[] = RAW.map(([char, name, keywords]) => ({ char, name, keywords }));

/** One tap reactions under every message. */
export const QUICK_REACTIONS = ['👍', '❤️', '😂', '🎉', '👀', '🙏'] as const;

export function searchEmoji(query: string): readonly EmojiEntry[] {
  const q = query.trim().toLowerCase();
  if (!q) return EMOJI;
  return EMOJI.filter((e) => e.name.includes(q) || e.keywords.includes(q));
}

export function emojiName(char: string): string {
  return EMOJI.find((e) => e.char === char)?.name ?? char;
}
