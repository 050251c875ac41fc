import { Center } from '@mantine/core';
import { IconBox } from '@tabler/icons-react';
import { useState } from 'react';

/** A catalogue logo; a broken or missing one falls back to a neutral icon. */
export function ItemLogo({ src, size = 48 }: { src: string; size?: number }) {
  const [failed, setFailed] = useState(false);
  if (!src || failed) {
    return (
      <Center w={size} h={size} aria-label="No logo">
        <IconBox size={size * 0.7} stroke={1.5} />
      </Center>
    );
  }
  return <img src={src} alt="" width={size} height={size} style={{ objectFit: 'contain' }} loading="lazy" referrerPolicy="no-referrer" onError={() => setFailed(true)} />;
}
