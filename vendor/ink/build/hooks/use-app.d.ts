/**
`useApp` is a React hook that exposes a method to manually exit the app (unmount).
*/
declare const useApp: () => import("../components/AppContext.js").Props;
export default useApp;
