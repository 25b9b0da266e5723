/**
`useStderr` is a React hook that exposes the stderr stream.
*/
declare const useStderr: () => import("../components/StderrContext.js").Props;
export default useStderr;
