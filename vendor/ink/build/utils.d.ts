declare const isDev: () => boolean;
export { isDev };
