import { securityApi, type TTwoStep } from '@cabinet/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call } from '../../../lib/api-client.ts';

const key = ['two-step'] as const;

/** Whether two-step sign-in is on for the caller, and how many recovery codes are left. */
export function useTwoStep() {
  return useQuery({ queryKey: key, queryFn: () => call(securityApi.get) });
}

/** A new authenticator-app secret and its QR code, shown until confirmed. */
export function useBeginTotp() {
  return useMutation({ mutationFn: () => call(securityApi.beginTotp) });
}

export function useConfirmTotp() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (code: string) => call(securityApi.confirmTotp, { body: { code } }),
    onSuccess: ({ recoveryCodes }) => client.setQueryData<TTwoStep>(key, (s) => s && { ...s, totp: true, recoveryCodesLeft: recoveryCodes.length }),
  });
}

export function useRegenerateRecoveryCodes() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => call(securityApi.regenerateRecoveryCodes),
    onSuccess: ({ recoveryCodes }) => client.setQueryData<TTwoStep>(key, (s) => s && { ...s, recoveryCodesLeft: recoveryCodes.length }),
  });
}

export function useRemoveTwoStep() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => call(securityApi.remove),
    onSuccess: () => client.setQueryData<TTwoStep>(key, (s) => s && { ...s, totp: false, recoveryCodesLeft: 0 }),
  });
}
