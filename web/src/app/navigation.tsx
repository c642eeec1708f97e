import {
  AppstoreAddOutlined,
  AppstoreOutlined,
  AuditOutlined,
  ClockCircleOutlined,
  CloudUploadOutlined,
  DeleteOutlined,
  FolderOpenOutlined,
  InfoCircleOutlined,
  PictureOutlined,
  ShareAltOutlined,
  StarOutlined,
  TagsOutlined,
} from '@ant-design/icons';
import { FunctionCode } from '@dam/contract';
import type { ReactNode } from 'react';

/**
 * The one place features register their side tab (SPEC §2 side tabs). A feature that is not
 * built has no entry: no placeholder pages.
 */
export interface SideTab {
  key: string;
  /** Where the tab leads. */
  to: string;
  /** The tab is highlighted for paths starting with this. */
  match: string;
  labelKey: string;
  icon: ReactNode;
  /** SPEC §2: in waterfall visit mode the recent-shares tab is hidden. */
  hiddenInWaterfall?: boolean;
  /** Shown only to holders of one of these function codes (the server checks again). */
  codes?: FunctionCode[];
}

export const SIDE_TABS: SideTab[] = [
  {
    key: 'allFiles',
    to: '/allfiles/all',
    match: '/allfiles',
    labelKey: 'nav.allFiles',
    icon: <FolderOpenOutlined />,
  },
  { key: 'recent', to: '/rencent', match: '/rencent', labelKey: 'nav.recent', icon: <ClockCircleOutlined /> },
  {
    key: 'favourites',
    to: '/myCollect',
    match: '/myCollect',
    labelKey: 'nav.favourites',
    icon: <StarOutlined />,
  },
  {
    key: 'collections',
    to: '/collections',
    match: '/collections',
    labelKey: 'nav.collections',
    icon: <AppstoreAddOutlined />,
  },
  {
    key: 'review',
    to: '/review',
    match: '/review',
    labelKey: 'nav.review',
    icon: <AuditOutlined />,
  },
  {
    key: 'uploads',
    to: '/myUpload',
    match: '/myUpload',
    labelKey: 'nav.myUploads',
    icon: <CloudUploadOutlined />,
  },
  {
    key: 'newShares',
    to: '/newShare',
    match: '/newShare',
    labelKey: 'nav.newShares',
    icon: <ShareAltOutlined />,
    hiddenInWaterfall: true,
  },
  {
    key: 'batchTag',
    to: '/batch-tag',
    match: '/batch-tag',
    labelKey: 'nav.batchTag',
    icon: <TagsOutlined />,
  },
  // Composing needs no code; managing the templates needs 9. Two paths, not /composite/templates:
  // tabs light up by prefix, so a nested path would light both.
  {
    key: 'composite',
    to: '/composite',
    match: '/composite',
    labelKey: 'nav.composite',
    icon: <PictureOutlined />,
  },
  {
    key: 'templates',
    to: '/templates',
    match: '/templates',
    labelKey: 'nav.templates',
    icon: <AppstoreOutlined />,
    codes: [FunctionCode.template],
  },
  { key: 'recycle', to: '/recycle', match: '/recycle', labelKey: 'nav.recycle', icon: <DeleteOutlined /> },
  { key: 'about', to: '/about', match: '/about', labelKey: 'nav.about', icon: <InfoCircleOutlined /> },
];

/** Where `/` leads (SPEC §2: /allfiles/all). */
export const HOME_PATH = SIDE_TABS[0]?.to ?? '/about';
