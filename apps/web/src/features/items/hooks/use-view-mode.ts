import { useLocalStorage } from '@mantine/hooks';

/** List or grid, remembered on this device for every folder. */
export function useViewMode() {
  return useLocalStorage<'list' | 'grid'>({ key: 'cabinet-view', defaultValue: 'list', getInitialValueInEffect: false });
}
