// Spec §4/§5 draft rule: kept only while it has content or settled attachments.
import { describe, expect, it } from 'vitest';
import { isContentEmpty, isDraftEmpty } from '../../src/store/drafts.ts';

const file = (isUploading?: boolean) => ({
  id: 'f1',
  fileName: 'a.png',
  fileType: 'image/png',
  fileSize: 10,
  url: null,
  ...(isUploading === undefined ? {} : { isUploading }),
});

describe('draft emptiness', () => {
  it('treats a composer with only empty paragraphs as empty', () => {
    expect(isContentEmpty('<p></p>')).toBe(true);
    expect(isContentEmpty('<p><br></p><p> </p>')).toBe(true);
    expect(isContentEmpty('<p>&nbsp;</p>')).toBe(true);
    expect(isContentEmpty('')).toBe(true);
  });

  it('keeps any visible text, even inside markup', () => {
    expect(isContentEmpty('<p><strong>hi</strong></p>')).toBe(false);
    expect(isContentEmpty('0')).toBe(false);
  });

  it('keeps a draft that has only a finished attachment', () => {
    expect(isDraftEmpty({ content: '<p></p>', attachments: [file(false)] })).toBe(false);
    expect(isDraftEmpty({ content: '<p></p>', attachments: [file()] })).toBe(false);
  });

  it('does not count an attachment that is still uploading', () => {
    expect(isDraftEmpty({ content: '<p></p>', attachments: [file(true)] })).toBe(true);
  });
});
