import { PasswordInput, type PasswordInputProps } from '@mantine/core';
import { useState } from 'react';

/**
 * A password input whose show/hide toggle is a real control: it is named ("Show password" /
 * "Hide password", with the field's label) and reachable with Tab, which Mantine's default
 * toggle (tabIndex -1, no name) is not.
 */
export function PasswordField(props: Omit<PasswordInputProps, 'visible' | 'onVisibilityChange' | 'visibilityToggleButtonProps'>) {
  const [visible, setVisible] = useState(false);
  const what = typeof props.label === 'string' ? props.label.toLowerCase() : 'password';
  return (
    <PasswordInput
      {...props}
      visible={visible}
      onVisibilityChange={setVisible}
      visibilityToggleButtonProps={{ tabIndex: 0, 'aria-label': `${visible ? 'Hide' : 'Show'} ${what}`, 'aria-pressed': visible }}
    />
  );
}
