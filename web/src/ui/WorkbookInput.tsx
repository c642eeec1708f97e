import type { Ref } from 'react';

/**
 * The hidden file input of an Excel import (.xlsx only): a button opens it through `ref`, and
 * `onFile` gets the workbook picked. The input is cleared at once, so picking the same file
 * again (after fixing it) is noticed.
 */
export function WorkbookInput({
  ref,
  onFile,
  testId,
}: {
  ref: Ref<HTMLInputElement>;
  onFile: (file: File) => void;
  testId: string;
}) {
  return (
    <input
      ref={ref}
      type="file"
      hidden
      accept=".xlsx,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
      data-testid={testId}
      onChange={(e) => {
        const file = e.target.files?.[0];
        e.target.value = '';
        if (file) onFile(file);
      }}
    />
  );
}
