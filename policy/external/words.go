package external

import (
	"fmt"
	"strings"
)

// SplitWords splits a command line into words as a POSIX shell would for a
// simple command, without running one: blanks separate words; 'single quotes'
// keep everything literally; "double quotes" keep everything but a backslash
// before $ ` " \ or a newline; an unquoted backslash keeps the next character.
// No expansion of any kind happens ($VAR, ~, globs, ;, |, > stay literal
// characters), so nothing but the named program runs.
func SplitWords(line string) ([]string, error) {
	var words []string
	var cur strings.Builder
	inWord := false
	rs := []rune(line)
	for i := 0; i < len(rs); i++ {
		r := rs[i]
		switch {
		case r == ' ' || r == '\t' || r == '\n':
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		case r == '\\':
			inWord = true
			if i+1 == len(rs) {
				return nil, fmt.Errorf("a backslash ends the command")
			}
			i++
			if rs[i] != '\n' { // backslash-newline joins lines
				cur.WriteRune(rs[i])
			}
		case r == '\'':
			inWord = true
			j := i + 1
			for ; j < len(rs) && rs[j] != '\''; j++ {
				cur.WriteRune(rs[j])
			}
			if j == len(rs) {
				return nil, fmt.Errorf("unterminated single quote at character %d", i+1)
			}
			i = j
		case r == '"':
			inWord = true
			j := i + 1
			for ; j < len(rs) && rs[j] != '"'; j++ {
				if rs[j] == '\\' && j+1 < len(rs) && strings.ContainsRune("$`\"\\\n", rs[j+1]) {
					j++
					if rs[j] != '\n' {
						cur.WriteRune(rs[j])
					}
					continue
				}
				cur.WriteRune(rs[j])
			}
			if j == len(rs) {
				return nil, fmt.Errorf("unterminated double quote at character %d", i+1)
			}
			i = j
		default:
			inWord = true
			cur.WriteRune(r)
		}
	}
	if inWord {
		words = append(words, cur.String())
	}
	if len(words) == 0 {
		return nil, fmt.Errorf("no command")
	}
	return words, nil
}
