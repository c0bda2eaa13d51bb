import { describe, expect, it } from 'vitest';
import { nextPathAfterSignIn } from './next-path';

const publicUrl = 'https://scout.example.com';

describe('nextPathAfterSignIn', () => {
  it.each([
    [undefined, '/'],
    ['https://scout.example.com/chat?q=1#a', '/chat?q=1#a'],
    ['/topic/1', '/topic/1'],
    ['https://evil.example.com/chat', '/'],
    ['//evil.example.com/chat', '/'],
    ['/\\evil.example.com', '/'],
    ['javascript:alert(1)', '/'],
    ['https://scout.example.com/login?redirect=%2Fchat', '/chat'],
    ['https://scout.example.com/login?redirect=https%3A%2F%2Fevil.example.com', '/'],
    ['/login?redirect=%2Flogin%3Fredirect%3D%252Fchat', '/'],
    ['/signup', '/'],
    // Each of these is on our origin, but its path would reach the browser as a protocol-relative address.
    ['https://scout.example.com//evil.example/x', '/'],
    ['https://scout.example.com/\\evil.example/x', '/'],
    ['/x/..//evil.example', '/'],
    ['/.//evil.example', '/'],
    ['/login?redirect=%2Fx%2F..%2F%2Fevil.example', '/'],
  ])('%s → %s', (origin, expected) => {
    expect(nextPathAfterSignIn(origin, publicUrl)).toBe(expected);
  });
});
