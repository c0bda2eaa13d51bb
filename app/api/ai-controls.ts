// The AI controls (common/api/ai-controls.ts) through the one API client: the org's, read by every member for the
// disclaimer under answers, and the signed-in member's own.
import { useQuery } from '@tanstack/react-query';
import { aiControlsSchema, personalAiControlsSchema } from '../../common/api/ai-controls';
import { apiRequest } from './client';

export const aiControlsKeys = {
  org: ['ai-controls', 'org'] as const,
  personal: ['ai-controls', 'personal'] as const,
};

export function useAiControls() {
  return useQuery({
    queryKey: aiControlsKeys.org,
    queryFn: ({ signal }) => apiRequest('ai_controls', { schema: aiControlsSchema, signal }),
    staleTime: 5 * 60_000,
  });
}

export function usePersonalAiControls() {
  return useQuery({
    queryKey: aiControlsKeys.personal,
    queryFn: ({ signal }) => apiRequest('ai_controls/personal', { schema: personalAiControlsSchema, signal }),
  });
}
