// Package parsefuzz is the fuzz body shared by the scenario readers' fuzz
// targets: no input makes a reader panic, and whatever it rejects is one
// line of bad input that names the file first.
package parsefuzz
