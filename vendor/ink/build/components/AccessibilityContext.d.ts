export declare const accessibilityContext: import("react").Context<{
    isScreenReaderEnabled: boolean;
}>;
