import { useNavigate } from 'react-router-dom';
import { networkApi, type Network } from '@berth/contract';
import { notifySuccess } from '../../../lib/notify';
import { DetailMenu } from '../../../components/Menus';
import { useDeleteNetwork } from '../api';

/** The detail page's menu: Delete Network (by name), then back to the list. */
export function NetworkMenu({ network }: { network: Network }) {
  const navigate = useNavigate();
  const remove = useDeleteNetwork();
  const onDelete = (settled: () => void) =>
    remove.mutate(network.Name, {
      onSuccess: () => {
        notifySuccess(`Network ${network.Name} deleted.`);
        navigate('/resources/networks');
      },
      onSettled: settled,
    });
  return (
    <DetailMenu
      deleteLabel="Delete Network"
      deleteRoute={networkApi.remove}
      confirmTitle="Delete the network?"
      confirmText={`The network ${network.Name} will be removed.`}
      deleting={remove.isPending}
      onDelete={onDelete}
    />
  );
}
