import { useForm, type UseFormReturnType } from '@mantine/form';
import { useEffect, useMemo, useRef } from 'react';
import {
  firstInvalidStep,
  hasErrorsIn,
  STEP_FIELDS,
  validateDeploy,
  type DeployErrors,
  type DeployFormValues,
} from './form-model';

export type DeployForm = UseFormReturnType<DeployFormValues>;

export interface DeployFormState {
  form: DeployForm;
  /** Every current rule violation, keyed by form path (recomputed on each change). */
  errors: DeployErrors;
  stepValid: (step: number) => boolean;
  firstInvalidStep: number;
}

/**
 * The one owner of the deploy form's state. Messages appear as a field is changed or left; a
 * pre-filled form (template or edit) shows every problem at once, since nobody typed them.
 */
export function useDeployForm(initial: DeployFormValues, prefilled: boolean): DeployFormState {
  const form = useForm<DeployFormValues>({
    mode: 'controlled',
    initialValues: initial,
    validate: validateDeploy,
    validateInputOnChange: true,
    validateInputOnBlur: true,
  });
  // Once, on mount: the page mounts a new form for each app or template item it shows.
  const validateOnce = useRef(prefilled ? form.validate : null);
  useEffect(() => {
    validateOnce.current?.();
    validateOnce.current = null;
  }, []);

  const errors = useMemo(() => validateDeploy(form.values), [form.values]);
  return {
    form,
    errors,
    stepValid: (step) => !hasErrorsIn(errors, STEP_FIELDS[step] ?? []),
    firstInvalidStep: firstInvalidStep(errors),
  };
}
