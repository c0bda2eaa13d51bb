import { describe, expect, it } from 'vitest';
import { REALTIME_CHUNK_BYTES } from '../../common/limits';
import { Reassembler, splitUtf8 } from '../../common/realtime-framing';
import { RECONNECT_DELAY_MAX_MS, RECONNECT_DELAY_MS, readFrame, reconnectDelay } from './connection';

describe('reconnectDelay', () => {
  it('doubles from one second up to the cap, with 50–100 % jitter', () => {
    expect(reconnectDelay(0, 1)).toBe(RECONNECT_DELAY_MS);
    expect(reconnectDelay(0, 0)).toBe(RECONNECT_DELAY_MS / 2);
    expect(reconnectDelay(3, 1)).toBe(8 * RECONNECT_DELAY_MS);
    expect(reconnectDelay(20, 1)).toBe(RECONNECT_DELAY_MAX_MS);
    expect(reconnectDelay(20, 0)).toBe(RECONNECT_DELAY_MAX_MS / 2);
  });
});

describe('readFrame', () => {
  const event = {
    type: 'EVENT',
    channel: 'topic:0b6c2d41-6f0e-4b8e-9c53-8b4f2d0c1a11',
    event: {
      type: 'answer.chunk',
      topicId: '0b6c2d41-6f0e-4b8e-9c53-8b4f2d0c1a11',
      answerId: 'a',
      offset: 0,
      text: '€'.repeat(REALTIME_CHUNK_BYTES),
    },
  };

  it('reads a whole message, and a chunked one once its last frame is in', () => {
    const reassembler = new Reassembler();
    expect(readFrame(JSON.stringify({ type: 'READY' }), reassembler)).toEqual({ type: 'READY' });
    const pieces = splitUtf8(JSON.stringify(event), REALTIME_CHUNK_BYTES);
    expect(pieces.length).toBe(4);
    const frames = pieces.map((data, index) =>
      JSON.stringify({ type: 'CHUNK', id: '1', index, count: pieces.length, data }),
    );
    expect(readFrame(frames[3], reassembler)).toBeNull();
    expect(readFrame(frames[1], reassembler)).toBeNull();
    expect(readFrame(frames[0], reassembler)).toBeNull();
    expect(readFrame(frames[2], reassembler)).toEqual(event);
  });

  it('drops what is not a server message', () => {
    const reassembler = new Reassembler();
    expect(readFrame('not json', reassembler)).toBeNull();
    expect(
      readFrame(JSON.stringify({ type: 'EVENT', channel: 'someone-else', event: {} }), reassembler),
    ).toBeNull();
    expect(readFrame(new ArrayBuffer(4), reassembler)).toBeNull();
  });
});
