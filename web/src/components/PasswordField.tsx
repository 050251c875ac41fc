import { PasswordInput, type PasswordInputProps } from '@mantine/core';
import { useState, type KeyboardEvent } from 'react';

/**
 * A password input whose show/hide toggle is a real control: it is named ("Show password" /
 * "Hide password"; it sits right after its field, which names the context) and reachable with
 * Tab and works with Enter as well as Space, which Mantine's default toggle (tabIndex -1, no name) is not.
 */
export function PasswordField(
  props: Omit<PasswordInputProps, 'visible' | 'onVisibilityChange' | 'visibilityToggleButtonProps'>,
) {
  const [visible, setVisible] = useState(false);
  return (
    <PasswordInput
      {...props}
      visible={visible}
      onVisibilityChange={setVisible}
      visibilityToggleButtonProps={{
        tabIndex: 0,
        'aria-label': visible ? 'Hide password' : 'Show password',
        'aria-pressed': visible,
        // Mantine toggles on mouse down, touch and Space only; Enter (a button's other key) does nothing there.
        onKeyDown: (e: KeyboardEvent<HTMLButtonElement>) => {
          if (e.key !== 'Enter') return;
          e.preventDefault();
          setVisible((v) => !v);
        },
      }}
    />
  );
}
