import { Button, Card, Group, Loader, Notification, Stepper, Text } from '@mantine/core';
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { errorMessage, notifySuccess } from '../../../lib/notify';
import { useDeploy } from '../api';
import { toPayload, type DeployFormValues } from '../form-model';
import { useDeployForm } from '../use-deploy-form';
import { EnvironmentStep } from './EnvironmentStep';
import { GeneralStep } from './GeneralStep';
import { NetworkingStep } from './NetworkingStep';
import { VolumesStep } from './VolumesStep';

const STEPS = ['General', 'Networking', 'Volumes', 'Environment'] as const;
const LAST = STEPS.length - 1;

export interface DeployFormProps {
  initial: DeployFormValues;
  /** Pre-filled from a template item or an app: its problems are shown at once. */
  prefilled?: boolean;
  /** Edit mode: the app being replaced (its engine id and name). */
  edit?: { id: string; name: string };
}

/** The four-step deploy / edit form; Deploy submits, success goes to the apps list. */
export function DeployForm({ initial, prefilled = false, edit }: DeployFormProps) {
  const navigate = useNavigate();
  const { form, errors, stepValid, firstInvalidStep } = useDeployForm(initial, prefilled, edit !== undefined);
  const deploy = useDeploy();
  const [active, setActive] = useState(0);
  const [confirming, setConfirming] = useState(false);
  // Inline at the top of step 1, not a floating notification: it must not cover the form's
  // buttons, stays while the form is corrected, and goes with the page.
  const [failure, setFailure] = useState<string | null>(null);

  const submit = () => {
    setConfirming(false);
    setFailure(null);
    deploy.mutate(toPayload(form.getValues(), edit?.id), {
      onSuccess: (res) => {
        notifySuccess(`${res.name} ${edit ? 'replaced' : 'deployed'}.`);
        // The app's own page, not a list scrolled to where the form was (issue 39 #13).
        navigate(`/apps/${encodeURIComponent(res.name)}/info`);
      },
      onError: (err) => {
        setActive(0);
        setFailure(errorMessage(err));
      },
    });
  };

  const onDeploy = () => {
    // Steps can be skipped by selecting them; the first one with a problem is shown instead.
    if (firstInvalidStep >= 0) {
      form.validate();
      setActive(firstInvalidStep);
      return;
    }
    if (edit) setConfirming(true);
    else submit();
  };

  const pending = deploy.isPending;
  return (
    <Card withBorder style={{ background: 'var(--berth-surface)' }}>
      <form
        aria-label={edit ? `Edit ${edit.name}` : 'Deploy'}
        noValidate
        onSubmit={(e) => {
          // Enter in a field continues (or deploys on the last step) only when the step is valid.
          e.preventDefault();
          if (!stepValid(active) || pending) return;
          if (active < LAST) setActive(active + 1);
          else onDeploy();
        }}
      >
        <Stepper active={active} onStepClick={setActive} allowNextStepsSelect size="sm" mb="lg">
          {STEPS.map((label, i) => (
            <Stepper.Step
              key={label}
              label={label}
              color={i !== active && i < active && !stepValid(i) ? 'red' : undefined}
            >
              {i === 0 && failure && (
                <Notification
                  color="red"
                  role="alert"
                  mb="md"
                  withBorder
                  onClose={() => setFailure(null)}
                  closeButtonProps={{ 'aria-label': 'Close' }}
                  data-testid="deploy-error"
                >
                  {failure}
                </Notification>
              )}
              {i === 0 && <GeneralStep form={form} />}
              {i === 1 && <NetworkingStep form={form} />}
              {i === 2 && <VolumesStep form={form} />}
              {i === 3 && <EnvironmentStep form={form} errors={errors} />}
            </Stepper.Step>
          ))}
        </Stepper>
        <Group justify="space-between" mt="xl">
          <Button variant="default" disabled={active === 0 || pending} onClick={() => setActive(active - 1)}>
            Back
          </Button>
          <Group gap="sm">
            {!stepValid(active) && (
              <Text size="sm" c="dimmed">
                Complete the required fields to continue.
              </Text>
            )}
            {active < LAST ? (
              <Button type="submit" disabled={!stepValid(active)}>
                Continue
              </Button>
            ) : (
              <Button
                type="submit"
                disabled={!stepValid(active) || pending}
                leftSection={pending ? <Loader size={14} /> : undefined}
              >
                {pending ? 'Deploying' : 'Deploy'}
              </Button>
            )}
          </Group>
        </Group>
      </form>
      <ConfirmDialog
        opened={confirming}
        title={`Replace ${edit?.name ?? 'the app'}?`}
        confirmLabel="Deploy"
        onConfirm={submit}
        onCancel={() => setConfirming(false)}
      >
        {`The running container ${edit?.name ?? ''} will be removed and replaced by a new one with this configuration. Its non-persistent data will be lost.`}
      </ConfirmDialog>
    </Card>
  );
}
