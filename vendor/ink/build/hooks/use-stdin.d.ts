/**
`useStdin` is a React hook that exposes the stdin stream.
*/
declare const useStdin: () => import("../components/StdinContext.js").Props;
export default useStdin;
