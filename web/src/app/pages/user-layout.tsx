import { Outlet } from 'react-router-dom';
import { UserAreaHeader } from '../../features/account/components/UserAreaHeader';

export default function UserLayout() {
  return (
    <>
      <UserAreaHeader>
        <Outlet />
      </UserAreaHeader>
    </>
  );
}
