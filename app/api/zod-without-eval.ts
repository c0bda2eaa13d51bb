import { z } from 'zod';

// The app's content security policy forbids eval. Unless told not to, zod probes for it with `Function('')` when it
// builds its first object schema, which the browser reports as a violation; main.tsx imports this module first.
z.config({ jitless: true });
