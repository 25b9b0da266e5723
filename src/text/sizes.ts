// Byte sizes for messages the user reads ("512 KB", "50.0 MB"). A leaf, like untrusted.ts,
// so the runtime's notices and the UI's lines say sizes the same way.

export function formatBytes(bytes: number): string {
  if (bytes < 1024 * 1024) return `${Math.max(1, Math.round(bytes / 1024))} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
