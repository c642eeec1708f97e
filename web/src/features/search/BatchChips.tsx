import Overflow from '@rc-component/overflow';
import { Tag, Typography } from 'antd';
import { useState } from 'react';
import styles from './BatchChips.module.css';

/** How many pasted values the search box shows as chips at most, before "+N". */
export const MAX_CHIPS = 3;

/**
 * The pasted values of a batch search as whole chips, as many of the first three as fit the box
 * (measured, in any language's header), and "+N" for the rest. Issue 39: chips cut to fit by a
 * count of characters were still clipped ("…") in English at 1366 px, where the header's buttons
 * leave the box less room. Measuring is Ant Design's own overflow component (its Select's tags).
 */
export function BatchChips({ values }: { values: string[] }) {
  const first = values.slice(0, MAX_CHIPS);
  const [visible, setVisible] = useState(first.length);
  const more = values.length - Math.min(visible, first.length);
  return (
    <Overflow<string>
      prefixCls={styles.chips}
      component="span"
      itemComponent="span"
      data={first}
      itemKey={(value) => value}
      maxCount="responsive"
      renderItem={(value) => <Tag className={styles.chip}>{value}</Tag>}
      renderRest={() => null}
      // Called with the index of the last chip shown.
      onVisibleChange={(last) => setVisible(last + 1)}
      suffix={
        more > 0 ? (
          <Typography.Text type="secondary" data-testid="search-batch-more">
            +{more}
          </Typography.Text>
        ) : null
      }
    />
  );
}
