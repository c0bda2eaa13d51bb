import { Avatar, Button, FileButton, Group, Input, Stack, Text } from '@mantine/core';
import { IconPhoto, IconUpload } from '@tabler/icons-react';
import { useState } from 'react';
import { readImageFile } from '../images';
import type { ImageKind } from '../images';

interface ImagePickerProps {
  label: string;
  hint: string;
  uploadLabel: string;
  removeLabel: string;
  kind: ImageKind;
  /** A data URL or web address, or null for none. */
  value: string | null;
  onChange: (value: string | null) => void;
  radius?: 'md' | 'xl';
  /** The preview's side in pixels. */
  size?: number;
  disabled?: boolean;
}

/** Picks an image (a logo, a photo), shows it, and says at once when it is too large, not square or not an image. */
export function ImagePicker(props: ImagePickerProps) {
  const {
    label,
    hint,
    uploadLabel,
    removeLabel,
    kind,
    value,
    onChange,
    radius = 'md',
    size = 64,
    disabled,
  } = props;
  const [error, setError] = useState<string | null>(null);

  const onFile = async (file: File | null) => {
    if (!file) return;
    const read = await readImageFile(file, kind);
    if (read.ok) {
      setError(null);
      onChange(read.dataUrl);
    } else {
      setError(read.error);
    }
  };

  return (
    <Stack gap={4}>
      <Input.Label>{label}</Input.Label>
      <Group gap="md" align="center" wrap="nowrap">
        <Avatar src={value} size={size} radius={radius} color="indigo" alt={label}>
          <IconPhoto size={size / 2.3} />
        </Avatar>
        <Stack gap={4}>
          <Group gap="xs">
            <FileButton
              onChange={(file) => void onFile(file)}
              accept={kind.types.join(',')}
              disabled={disabled}
            >
              {(buttonProps) => (
                <Button {...buttonProps} variant="default" size="xs" leftSection={<IconUpload size={14} />}>
                  {uploadLabel}
                </Button>
              )}
            </FileButton>
            {value && (
              <Button
                variant="subtle"
                color="gray"
                size="xs"
                disabled={disabled}
                onClick={() => {
                  setError(null);
                  onChange(null);
                }}
              >
                {removeLabel}
              </Button>
            )}
          </Group>
          {error ? (
            <Text size="xs" c="red" role="alert">
              {error}
            </Text>
          ) : (
            <Text size="xs" c="dimmed">
              {hint}
            </Text>
          )}
        </Stack>
      </Group>
    </Stack>
  );
}
