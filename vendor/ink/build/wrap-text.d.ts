import { type Styles } from './styles.js';
declare const wrapText: (text: string, maxWidth: number, wrapType: Styles["textWrap"]) => string;
export default wrapText;
