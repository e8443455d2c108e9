/** The provider keeps its tables in the host's database and reaches them through plain SQL. */
export interface SqlClient {
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
}
