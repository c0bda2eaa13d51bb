import { describe, expect, it } from 'vitest';
import { dataUrl, jpegHeaderBytes, pngBytes, webpLosslessHeaderBytes } from '../testing/images';
import { imageSize, readImageDataUrl } from './data-url';

const LOGO = { maxBytes: 1000, allowed: ['image/png', 'image/jpeg', 'image/webp'] as const };

describe('image headers', () => {
  it('reads the size of PNG, JPEG, WebP and GIF images', () => {
    expect(imageSize(pngBytes(30, 20))).toEqual({ mimeType: 'image/png', width: 30, height: 20 });
    expect(imageSize(jpegHeaderBytes(640, 480))).toEqual({ mimeType: 'image/jpeg', width: 640, height: 480 });
    expect(imageSize(webpLosslessHeaderBytes(300, 301))).toEqual({
      mimeType: 'image/webp',
      width: 300,
      height: 301,
    });
    const gif = Buffer.from('GIF89a\x05\x00\x07\x00', 'latin1');
    expect(imageSize(gif)).toEqual({ mimeType: 'image/gif', width: 5, height: 7 });
  });

  it('answers null for bytes that are no image or a truncated header', () => {
    expect(imageSize(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'))).toBeNull();
    expect(imageSize(pngBytes(4, 4).subarray(0, 20))).toBeNull();
    expect(imageSize(Buffer.from([0xff, 0xd8, 0xff, 0xda, 0, 2]))).toBeNull();
  });
});

describe('image data URLs', () => {
  it('accepts an image whose bytes match its declared type and size limit', () => {
    const image = readImageDataUrl(dataUrl('image/png', pngBytes(8, 8)), LOGO);
    expect(image).toMatchObject({ mimeType: 'image/png', width: 8, height: 8 });
  });

  it('refuses a type the bytes contradict, a type not allowed, and too many bytes', () => {
    expect(readImageDataUrl(dataUrl('image/jpeg', pngBytes(8, 8)), LOGO)).toBe('not-an-image');
    const gif = Buffer.from('GIF89a\x05\x00\x05\x00', 'latin1');
    expect(readImageDataUrl(dataUrl('image/gif', gif), LOGO)).toBe('not-an-image');
    expect(readImageDataUrl('data:image/png;base64,%%%', LOGO)).toBe('not-an-image');
    expect(readImageDataUrl(dataUrl('image/png', pngBytes(400, 400)), { ...LOGO, maxBytes: 10 })).toBe(
      'too-large',
    );
  });
});
