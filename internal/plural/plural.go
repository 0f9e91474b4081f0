package plural

import (
	"strconv"
	"strings"
)

// Noun is noun in the singular when n is 1, and its regular plural otherwise:
// "es" after s, x, z, ch and sh (class, box), "ies" for a "y" after a
// consonant (entry), a plain "s" after anything else (day, job).
// Every noun the reports count (job, task, item, resource, class, …) is
// regular; the last word of a phrase takes the ending ("task event").
func Noun(n float64, noun string) string {
	if n == 1 {
		return noun
	}
	if n := len(noun); n >= 2 && noun[n-1] == 'y' && !strings.ContainsRune("aeiou", rune(noun[n-2])) {
		return noun[:n-1] + "ies"
	}
	for _, end := range []string{"s", "x", "z", "ch", "sh"} {
		if strings.HasSuffix(noun, end) {
			return noun + "es"
		}
	}
	return noun + "s"
}

// Count is n and its noun: Count(1, "job") = "1 job", Count(3, "job") = "3 jobs".
func Count(n int, noun string) string {
	return strconv.Itoa(n) + " " + Noun(float64(n), noun)
}
