import { type Kysely, sql } from 'kysely';
import type { Db } from '../../db/database';
import type { Database } from '../../db/schema';
import { DepartmentsRepository } from './departments.repository';
import { RolesRepository } from './roles.repository';
import { UsersRepository } from './users.repository';

/**
 * Transaction-scoped advisory lock key of accounts administration. Every change to departments,
 * users or roles takes it first, so the checks made inside (a department without members before
 * deletion, the last holder of the system role, a move not under its own subtree, identifiers
 * not taken) cannot be invalidated by a concurrent change before commit.
 */
const ACCOUNTS_LOCK = 727003;

/**
 * SQL of departments, roles and users, one repository each on the same connection or
 * transaction, and the locks a change to them takes.
 */
export class AccountsRepository {
  readonly departments: DepartmentsRepository;
  readonly users: UsersRepository;
  readonly roles: RolesRepository;

  constructor(private readonly db: Db | Kysely<Database>) {
    this.departments = new DepartmentsRepository(db);
    this.users = new UsersRepository(db);
    this.roles = new RolesRepository(db);
  }

  /**
   * Runs `work` once across every process sharing the database: a transaction-scoped advisory
   * lock keeps two servers starting together from both seeding the first administrator.
   */
  withStartupLock<T>(work: (repo: AccountsRepository) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(async (trx) => {
      await sql`SELECT pg_advisory_xact_lock(727001)`.execute(trx);
      return work(new AccountsRepository(trx));
    });
  }

  /** One transaction holding the accounts lock: a change to departments, users or roles. */
  locked<T>(work: (repo: AccountsRepository) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(async (trx) => {
      await sql`SELECT pg_advisory_xact_lock(${ACCOUNTS_LOCK})`.execute(trx);
      return work(new AccountsRepository(trx));
    });
  }
}
