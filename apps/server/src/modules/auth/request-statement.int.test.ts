import { describe, expect, it } from 'vitest';
import { statementsOf } from '../../testing/statements.ts';
import { useTestApp } from '../../testing/test-app.ts';
import { ACTOR_USER_COLUMNS } from '../users/index.ts';

const test = useTestApp();

/** The columns a statement selects (its list before `from`, split at the top level). */
const selected = (statement: string) => statement.slice('select '.length, statement.indexOf(' from ')).split(', ');

describe('what every request reads to know its caller', () => {
  it('is one statement reading only the person’s columns a request needs and the token’s five, not whole rows', async () => {
    const ada = await test.given.person('Ada');
    const me = () => test.app.app.inject({ method: 'GET', url: '/api/v1/me', headers: { authorization: `Bearer ${ada.token}` } });
    // The token's first use is noted (a write, at most once an hour): counted after it, a call only reads.
    expect((await me()).statusCode).toBe(200);
    const { result, statements } = await statementsOf(me);
    expect(result.statusCode).toBe(200);
    expect(result.json().user).toMatchObject({ id: ada.id, name: 'Ada' });
    expect(statements).toHaveLength(1);
    const columns = selected(statements[0]!);
    expect(
      columns.some((c) => c.endsWith('*')),
      statements[0],
    ).toBe(false);
    expect(columns, statements[0]).toHaveLength(ACTOR_USER_COLUMNS.length + 5);
  });
});
