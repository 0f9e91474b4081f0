package mrboundcli

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/mrbound/mrbound/badinput"
	"github.com/mrbound/mrbound/instances/coshhscenario"
	"github.com/mrbound/mrbound/instances/jlassiscenario"
	"github.com/mrbound/mrbound/instances/mrcpscenario"
	"github.com/mrbound/mrbound/instances/tummscenario"
	"github.com/mrbound/mrbound/workload"
)

// TestJSONReadersRefuseRepeatedKeys gives every JSON scenario reader (each
// kind's Parse, the simulator's workload.Parse, the CLI's kind sniffing,
// and `mrbound solve`/`simulate` end to end) each example scenario with a
// key repeated at the top level and inside a nested object, and with a
// syntax error: every one is bad input naming file:line:column, and the
// repeated key's JSON path.
func TestJSONReadersRefuseRepeatedKeys(t *testing.T) {
	readers := map[string]func(file string, data []byte) error{
		"mrcp":   func(f string, d []byte) error { _, err := mrcpscenario.Parse(f, d); return err },
		"coshh":  func(f string, d []byte) error { _, err := coshhscenario.Parse(f, d); return err },
		"jlassi": func(f string, d []byte) error { _, err := jlassiscenario.Parse(f, d); return err },
		"tumm":   func(f string, d []byte) error { _, err := tummscenario.Parse(f, d); return err },
	}
	firstNested := regexp.MustCompile(`\{\s*"(\w+)":`)
	for _, c := range []struct{ kind, example, nested string }{
		{"mrcp", "mrcp-stream.json", "resources[0].name"},
		{"coshh", "coshh-paper.json", "resources[0].name"},
		{"jlassi", "scenario5.json", "machines[0].id"},
		{"tumm", "tumm-fig6.json", "batch.cluster"},
	} {
		good, err := os.ReadFile(filepath.Join("..", "..", "examples", c.example))
		if err != nil {
			t.Fatal(err)
		}
		if err := readers[c.kind](c.example, good); err != nil {
			t.Fatalf("%s: the example itself: %v", c.example, err)
		}
		top := bytes.Replace(good, []byte(`"kind"`), []byte(`"kind": "`+c.kind+`", "kind"`), 1)
		loc := firstNested.FindSubmatchIndex(good[1:])
		key := string(good[1+loc[2] : 1+loc[3]])
		nested := append(append(append([]byte{}, good[:1+loc[2]-1]...), []byte(`"`+key+`": 0, "`)...), good[1+loc[2]:]...)
		comma := bytes.Index(good, []byte(`"kind"`))
		comma += bytes.IndexByte(good[comma:], ',')
		syntax := append(append([]byte{}, good[:comma]...), good[comma+1:]...) // the comma after "kind" dropped
		for name, doc := range map[string]struct {
			data []byte
			want string
		}{
			"top":    {top, fmt.Sprintf(`:2:%d: kind: key "kind" repeats`, 3+len(`"kind": "`+c.kind+`", `))},
			"nested": {nested, ": " + c.nested + `: key "` + key + `" repeats`},
			"syntax": {syntax, ":3:3: "},
		} {
			check := func(who string, err error) {
				t.Helper()
				if !errors.Is(err, badinput.Err) || !strings.Contains(err.Error(), doc.want) || !strings.HasPrefix(err.Error(), c.example+":") {
					t.Errorf("%s, %s, %s: %v; want %s:…%s", c.example, name, who, err, c.example, doc.want)
				}
			}
			check("Parse", readers[c.kind](c.example, doc.data))
			_, err := workload.Parse(c.example, doc.data, workload.DefaultOptions())
			check("workload.Parse", err)
			_, err = scenarioKind(c.example, doc.data)
			check("scenarioKind", err)
		}
		// End to end: exit 1, one line.
		dir := t.TempDir()
		file := filepath.Join(dir, c.example)
		os.WriteFile(file, top, 0o644)
		for _, cmd := range []string{"solve", "simulate"} {
			var stdout, stderr bytes.Buffer
			code := run([]string{"mrbound", cmd, file}, &stdout, &stderr)
			if code != exitBadInput || strings.Count(stderr.String(), "\n") != 1 || !strings.Contains(stderr.String(), `kind: key "kind" repeats`) {
				t.Errorf("mrbound %s %s: exit %d, %q", cmd, c.example, code, stderr.String())
			}
		}
	}
}
