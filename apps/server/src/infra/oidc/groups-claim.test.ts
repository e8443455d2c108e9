import { describe, expect, it } from 'vitest';
import { groupsFromClaims } from './relying-party.ts';

describe('the groups claim', () => {
  it('reads an array of names, or one name, from the configured claim', () => {
    expect(groupsFromClaims({ groups: ['Engineering', ' Design ', '', 7, null] }, 'groups')).toEqual(['Engineering', 'Design']);
    expect(groupsFromClaims({ 'https://example.com/roles': 'Ops' }, 'https://example.com/roles')).toEqual(['Ops']);
    expect(groupsFromClaims({ groups: [] }, 'groups')).toEqual([]);
  });

  it('changes nothing when no claim is configured, or the provider sends none or something else', () => {
    expect(groupsFromClaims({ groups: ['Engineering'] }, undefined)).toBeUndefined();
    expect(groupsFromClaims({}, 'groups')).toBeUndefined();
    expect(groupsFromClaims({ groups: { a: 1 } }, 'groups')).toBeUndefined();
  });
});
