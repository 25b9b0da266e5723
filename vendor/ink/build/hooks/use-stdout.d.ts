/**
`useStdout` is a React hook that exposes the stdout stream where Ink renders your app.
*/
declare const useStdout: () => import("../components/StdoutContext.js").Props;
export default useStdout;
