import type { PermissionScope } from '@dam/contract';
import type { ColumnType } from 'kysely';

/** Column types shared by the tables' interfaces; the migrations in ../migrations are the source of truth. */
export type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
export type CreatedAt = ColumnType<Date, Date | string | undefined, never>;

export type ScopeColumn = PermissionScope;
