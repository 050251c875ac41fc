import { useParams, useSearchParams } from 'react-router-dom';
import { FilesBrowser } from '../../components/files';

/** /resources/volumes/:volumeName/files?path=/conf */
export default function VolumeFilesPage() {
  const { volumeName = '' } = useParams();
  const [params, setParams] = useSearchParams();
  const path = params.get('path') || '/';
  return (
    <FilesBrowser target={{ kind: 'volumes', name: volumeName }} path={path} onPath={(p) => setParams({ path: p })} />
  );
}
