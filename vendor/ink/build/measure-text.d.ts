type Output = {
    width: number;
    height: number;
};
declare const measureText: (text: string) => Output;
export default measureText;
