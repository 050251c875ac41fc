import { useParams, useSearchParams } from 'react-router-dom';
import { FilesBrowser } from '../../components/files';

/** /apps/:appName/files?path=/etc */
export default function AppFilesPage() {
  const { appName = '' } = useParams();
  const [params, setParams] = useSearchParams();
  const path = params.get('path') || '/';
  return <FilesBrowser target={{ kind: 'apps', name: appName }} path={path} onPath={(p) => setParams({ path: p })} />;
}
