/** A column's letters as a spreadsheet names it, from its index (0 → A): A … Z, AA, AB … ZZ, AAA … */
export function columnName(index: number): string {
  let name = '';
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) name = String.fromCharCode(65 + ((n - 1) % 26)) + name;
  return name;
}
