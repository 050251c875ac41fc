import { useForm, type UseFormReturnType } from '@mantine/form';
import { useEffect, useMemo, useRef } from 'react';
import { deployFormFeatures, featureKey, type PolicyFeature, type PolicyViolation } from '@berth/contract';
import { usePolicyJudge } from '../../lib/policy';
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
export function useDeployForm(initial: DeployFormValues, prefilled: boolean, editing = false): DeployFormState {
  const judge = usePolicyJudge();
  const policy = useRef<(v: DeployFormValues) => DeployErrors>(() => ({}));
  // An edit keeps what the app already had (the server judges it the same way): only new refusals are marked.
  const kept = useMemo(
    () => new Set(editing ? judge(formFeatures(initial)).map(featureKey) : []),
    [editing, initial, judge],
  );
  policy.current = (v) => policyErrors(judge(formFeatures(v)).filter((x) => !kept.has(featureKey(x))));
  const form = useForm<DeployFormValues>({
    mode: 'controlled',
    initialValues: initial,
    validate: (v) => ({ ...validateDeploy(v), ...policy.current(v) }),
    validateInputOnChange: true,
    validateInputOnBlur: true,
  });
  // Once, on mount: the page mounts a new form for each app or template item it shows.
  const validateOnce = useRef(prefilled ? form.validate : null);
  useEffect(() => {
    validateOnce.current?.();
    validateOnce.current = null;
  }, []);

  const errors = useMemo(
    () => ({ ...validateDeploy(form.values), ...policy.current(form.values) }),
    // The policy arrives after the form: its judgement is part of what the errors depend on.
    [form.values, judge, kept],
  );
  useEffect(() => {
    // Marks a refused field that was filled in before the policy arrived (a template, an edit).
    // Once per judgement (the policy arriving), not per keystroke.
    for (const [field, message] of Object.entries(policy.current(form.getValues()))) form.setFieldError(field, message);
  }, [judge, kept]);
  return {
    form,
    errors,
    stepValid: (step) => !hasErrorsIn(errors, STEP_FIELDS[step] ?? []),
    firstInvalidStep: firstInvalidStep(errors),
  };
}

function formFeatures(v: DeployFormValues): PolicyFeature[] {
  return deployFormFeatures({
    volumes: v.volumes,
    devices: v.devices,
    sysctls: v.sysctls,
    cap_add: v.cap_add,
    network_mode: v.network_mode,
    privileged: v.privileged,
  });
}

/** The policy's refusals keyed by form path, in the rule's own words (several capabilities share one field). */
function policyErrors(found: PolicyViolation[]): DeployErrors {
  const out: DeployErrors = {};
  for (const v of found) out[v.field] = out[v.field] ? `${out[v.field]} ${v.message}` : v.message;
  return out;
}
