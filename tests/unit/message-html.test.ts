// Which message markup may skip DOMPurify (src/components/messages/message-html.ts): only what the
// sanitiser would hand back unchanged. Anything with another tag, an attribute, an entity or an address
// takes the whole path (rendered in the browser by e2e/messages specs).
import { describe, expect, it } from 'vitest';
import { isPlainParagraphs, plainParagraphTexts } from '../../src/components/messages/message-html.ts';

describe('plain paragraphs skip the sanitiser', () => {
  it('takes text in paragraphs, quotes, emoji and empty lines included', () => {
    expect(isPlainParagraphs('<p>Lunch is here</p>')).toBe(true);
    expect(isPlainParagraphs('<p>"Quoted", it\'s 5 o\'clock 🎉</p><p></p><p>second line</p>')).toBe(true);
  });

  it('sends anything else through it', () => {
    for (const html of [
      '',
      'no paragraph',
      '<p>a &amp; b</p>',
      '<p>1 < 2</p>',
      '<p class="x">styled</p>',
      '<p onclick="alert(1)">hi</p>',
      '<p><strong>bold</strong></p>',
      '<p>hi</p><img src=x onerror=alert(1)>',
      '<p>hi</p>\n<script>alert(1)</script>',
      '<p><span data-type="mention" data-id="u1" class="mention">@Ada</span></p>',
      '<P>upper</P>',
      '<p>see example.com for it</p>',
      '<p>https://lantern.example/path</p>',
      '<p>example.com</p>',
      '<p>first line</p><p>www.example.com</p>',
      '<p>mail a@b.com</p>',
    ])
      expect(isPlainParagraphs(html), html).toBe(false);
  });

  it('draws plain paragraphs from their texts, each line its own, and nothing else', () => {
    expect(plainParagraphTexts('<p>Lunch is here</p>')).toEqual(['Lunch is here']);
    expect(plainParagraphTexts('<p>first</p><p></p><p>"third" 🎉</p>')).toEqual(['first', '', '"third" 🎉']);
    expect(plainParagraphTexts('<p><strong>bold</strong></p>')).toBeNull();
    expect(plainParagraphTexts('<p>a &amp; b</p>')).toBeNull();
  });
});
