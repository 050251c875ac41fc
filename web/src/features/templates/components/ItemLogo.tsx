import { Center } from '@mantine/core';
import { IconBox } from '@tabler/icons-react';
import { useState } from 'react';
import { showableLogo } from '../logo';

/**
 * A catalogue logo; a missing, broken or non-https one shows a neutral icon in the same space.
 * The page's CSP allows only https images, so an http:// logo is never requested (it could only fail).
 */
export function ItemLogo({ src, size = 48 }: { src: string; size?: number }) {
  const [failed, setFailed] = useState(false);
  const url = showableLogo(src);
  if (!url || failed) {
    return (
      <Center w={size} h={size} style={{ flexShrink: 0 }} role="img" aria-label="No logo">
        <IconBox size={size * 0.7} stroke={1.5} />
      </Center>
    );
  }
  return (
    <img
      src={url}
      alt=""
      width={size}
      height={size}
      style={{ objectFit: 'contain', flexShrink: 0 }}
      referrerPolicy="no-referrer"
      onError={() => setFailed(true)}
    />
  );
}
