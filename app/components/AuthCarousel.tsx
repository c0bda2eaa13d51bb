import { Box, Group, Stack, Text, Title, UnstyledButton } from '@mantine/core';
import { useEffect, useState } from 'react';
import type { ReactElement } from 'react';
import { CAROUSEL_DELAY_MS } from '../../common/limits';
import { carouselSlides } from '../strings';

// Spec §2.4: on wide screens a carousel of 3 images, 3 s each, looping. The images are drawn inline, so the
// sign-in page loads nothing from elsewhere.

const WHITE = 'rgba(255,255,255,0.95)';
const SOFT = 'rgba(255,255,255,0.35)';
const FAINT = 'rgba(255,255,255,0.18)';

function SearchImage() {
  return (
    <svg viewBox="0 0 320 200" width="100%" role="presentation">
      <rect x="20" y="24" width="280" height="40" rx="20" fill={WHITE} />
      <circle cx="46" cy="44" r="9" fill="none" stroke="#4c6ef5" strokeWidth="3" />
      <line x1="52" y1="50" x2="58" y2="56" stroke="#4c6ef5" strokeWidth="3" strokeLinecap="round" />
      <rect x="68" y="39" width="140" height="10" rx="5" fill="#dbe4ff" />
      {[0, 1, 2, 3].map((i) => (
        <g key={i}>
          <rect x={20 + i * 72} y="88" width="64" height="64" rx="14" fill={SOFT} />
          <circle cx={52 + i * 72} cy="120" r="14" fill={WHITE} />
        </g>
      ))}
      <rect x="20" y="168" width="180" height="10" rx="5" fill={FAINT} />
    </svg>
  );
}

function AnswerImage() {
  return (
    <svg viewBox="0 0 320 200" width="100%" role="presentation">
      <rect x="20" y="16" width="220" height="34" rx="12" fill={SOFT} />
      <rect x="80" y="62" width="220" height="78" rx="12" fill={WHITE} />
      {[0, 1, 2].map((i) => (
        <rect key={i} x="96" y={78 + i * 18} width={i === 2 ? 120 : 188} height="8" rx="4" fill="#dbe4ff" />
      ))}
      {[0, 1, 2].map((i) => (
        <g key={i}>
          <rect x={80 + i * 76} y="152" width="68" height="32" rx="8" fill={SOFT} />
          <circle cx={96 + i * 76} cy="168" r="7" fill={WHITE} />
        </g>
      ))}
    </svg>
  );
}

function TeamImage() {
  return (
    <svg viewBox="0 0 320 200" width="100%" role="presentation">
      <rect x="40" y="20" width="240" height="120" rx="16" fill={WHITE} />
      {[0, 1, 2].map((i) => (
        <rect key={i} x="64" y={44 + i * 24} width={i === 1 ? 150 : 192} height="10" rx="5" fill="#dbe4ff" />
      ))}
      {[0, 1, 2, 3].map((i) => (
        <circle
          key={i}
          cx={118 + i * 28}
          cy="168"
          r="18"
          fill={i === 3 ? WHITE : SOFT}
          stroke="#4c6ef5"
          strokeWidth="3"
        />
      ))}
    </svg>
  );
}

const IMAGES: ReadonlyArray<() => ReactElement> = [SearchImage, AnswerImage, TeamImage];

export function AuthCarousel() {
  const [index, setIndex] = useState(0);

  // Restarted on every change, so a slide picked by hand also stays its full 3 s.
  useEffect(() => {
    const timer = setTimeout(() => setIndex((index + 1) % carouselSlides.length), CAROUSEL_DELAY_MS);
    return () => clearTimeout(timer);
  }, [index]);

  const slide = carouselSlides[index] ?? carouselSlides[0];
  const Image = IMAGES[index] ?? SearchImage;
  return (
    <Stack gap="xl" maw={420} w="100%" data-testid="auth-carousel" aria-roledescription="carousel">
      <Box key={index} style={{ animation: 'scout-fade-in 400ms ease-out' }}>
        <Image />
      </Box>
      <Stack gap={6}>
        <Title order={3} c="white">
          {slide.title}
        </Title>
        <Text c="indigo.0">{slide.text}</Text>
      </Stack>
      <Group gap={8}>
        {carouselSlides.map((item, dot) => (
          <UnstyledButton
            key={item.title}
            aria-label={item.title}
            aria-current={dot === index}
            onClick={() => setIndex(dot)}
            w={dot === index ? 24 : 8}
            h={8}
            style={{
              borderRadius: 4,
              background: dot === index ? 'white' : 'rgba(255,255,255,0.4)',
              transition: 'width 200ms',
            }}
          />
        ))}
      </Group>
      <style>
        {'@keyframes scout-fade-in { from { opacity: 0; transform: translateY(6px); } to { opacity: 1; } }'}
      </style>
    </Stack>
  );
}
