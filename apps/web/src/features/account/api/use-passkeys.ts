import { securityApi, type TPasskey } from '@cabinet/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call } from '../../../lib/api-client.ts';

const key = ['passkeys'] as const;
type List = { passkeys: TPasskey[] };

/** The caller's passkeys, oldest first. */
export function usePasskeys() {
  return useQuery({ queryKey: key, queryFn: () => call(securityApi.listPasskeys) });
}

/**
 * Adds a passkey: the server's options (given the password), the browser's own prompt (the device asks its owner for a
 * PIN, a fingerprint or a face), then the new key kept under the name given. WebAuthn's browser code loads with this,
 * the first time.
 */
export function useAddPasskey() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async ({ name, currentPassword }: { name: string; currentPassword: string }) => {
      const [{ startRegistration }, { options }] = await Promise.all([
        import('@simplewebauthn/browser'),
        call(securityApi.passkeyOptions, { body: { currentPassword } }),
      ]);
      const response = await startRegistration({ optionsJSON: options as unknown as Parameters<typeof startRegistration>[0]['optionsJSON'] });
      return call(securityApi.addPasskey, { body: { name, response: response as unknown as Record<string, unknown> } });
    },
    onSuccess: (added) => client.setQueryData<List>(key, (l) => l && { passkeys: [...l.passkeys, added] }),
  });
}

export function useRenamePasskey() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, name }: { id: string; name: string }) => call(securityApi.renamePasskey, { params: { id }, body: { name } }),
    onSuccess: (renamed) => client.setQueryData<List>(key, (l) => l && { passkeys: l.passkeys.map((p) => (p.id === renamed.id ? renamed : p)) }),
  });
}

export function useRemovePasskey() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => call(securityApi.removePasskey, { params: { id } }),
    onSuccess: (_, id) => client.setQueryData<List>(key, (l) => l && { passkeys: l.passkeys.filter((p) => p.id !== id) }),
  });
}
