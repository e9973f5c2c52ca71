// The hidden file input behind an "Upload picture" button: images only, out of the tab order (the visible
// button is the control), and cleared after each choice so choosing the same file again still counts.
import type { RefObject } from 'react';

export function PictureFileInput({
  inputRef,
  label,
  onChoose,
}: {
  inputRef: RefObject<HTMLInputElement | null>;
  /** The input's name, for tests and assistive technology that reach it. */
  label: string;
  onChoose: (file: File | undefined) => void;
}) {
  return (
    <input
      ref={inputRef}
      type="file"
      accept="image/*"
      className="sr-only"
      tabIndex={-1}
      aria-label={label}
      onChange={(e) => {
        onChoose(e.target.files?.[0]);
        e.target.value = '';
      }}
    />
  );
}
