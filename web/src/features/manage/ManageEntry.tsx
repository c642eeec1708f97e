import { SettingOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { functionCodesOf, useCurrentUser } from '../../auth/useCurrentUser';
import { visibleManageTabs } from './tabs';

/** The top-bar entry of the admin area, shown only to users who may see one of its tabs. */
export function ManageEntry() {
  const { t } = useTranslation();
  const { data } = useCurrentUser();
  if (visibleManageTabs(functionCodesOf(data)).length === 0) return null;
  return (
    <Link to="/manage">
      <Button type="text" icon={<SettingOutlined />} data-testid="manage-entry">
        {t('manage.entry')}
      </Button>
    </Link>
  );
}
