import { ChangePasswordForm } from '../../features/account/components/ChangePasswordForm';

export default function ChangePasswordPage() {
  return <ChangePasswordForm />;
}
