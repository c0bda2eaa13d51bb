import { Modal, createTheme } from '@mantine/core';

export const theme = createTheme({
  primaryColor: 'indigo',
  defaultRadius: 'md',
  components: {
    // Dialog titles read as titles, not as body text.
    Modal: Modal.extend({ styles: { title: { fontWeight: 600, fontSize: 'var(--mantine-font-size-lg)' } } }),
  },
});
