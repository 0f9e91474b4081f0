package plural

import "strconv"

// Noun is noun in the singular when n is 1, with "s" appended otherwise.
// Every noun the reports count (job, task, item, resource, user, …) takes a
// plain "s".
func Noun(n float64, noun string) string {
	if n == 1 {
		return noun
	}
	return noun + "s"
}

// Count is n and its noun: Count(1, "job") = "1 job", Count(3, "job") = "3 jobs".
func Count(n int, noun string) string {
	return strconv.Itoa(n) + " " + Noun(float64(n), noun)
}
