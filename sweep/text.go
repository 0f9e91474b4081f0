package sweep

import (
	"fmt"
	"unicode"

	"github.com/mrbound/mrbound/badinput"
)

// CheckText refuses, as bad input, a value that carries a control character
// (a newline, a carriage return, a tab, NUL, U+0085, …) or a Unicode line or
// paragraph separator. Every value that reaches a line of a generated script
// or job file (a manifest's title and item IDs, engine options such as a
// Slurm partition or an #SBATCH option) passes here first: a line break in a
// value would start a line of its own — in an sbatch script, a command the
// shell runs. field names the value in the message.
func CheckText(field, value string) error {
	if p := textProblem(value); p != "" {
		return badinput.Errorf("%s: %s", field, p)
	}
	return nil
}

// textProblem says what makes value unfit for a script line, or "".
func textProblem(value string) string {
	for i, r := range value {
		if unicode.IsControl(r) || r == '\u2028' || r == '\u2029' {
			return fmt.Sprintf("%q holds the control character %U at byte %d; newlines and control characters cannot go into a job script", value, r, i)
		}
	}
	return ""
}
