// Imported lazily by main.tsx: through this module the toasts' container gets its own chunk (a
// dynamic import of the package itself would keep it in the first one, beside the store).
export { Notifications } from '@mantine/notifications';
