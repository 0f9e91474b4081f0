package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"syscall"
	"time"
)

// outcome is what one run did.
type outcome struct {
	class, name string
	code        int  // exit code; -1 killed at the timeout
	oneLine     bool // standard error is empty or one line
	panicked    bool // standard error shows a Go panic or an internal error
	temp        bool // a temporary file was left
	marker      bool // an injected command ran (PWNED exists)
	changed     bool // an input changed
	note        string
}

func (o outcome) finding() string {
	switch {
	case o.marker:
		return "injected command ran"
	case o.panicked:
		return "panic"
	case o.temp:
		return "temporary file left"
	case o.changed:
		return "input changed"
	case o.code == 2:
		return "exit 2"
	case o.code == -1:
		return "timeout"
	case o.code == 1 && !o.oneLine:
		return "message not one line"
	}
	return ""
}

type auditor struct {
	bin     string
	timeout time.Duration
	rng     *rand.Rand
	out     []outcome
	verbose bool
}

var tmpName = regexp.MustCompile(`^\..*\.tmp[0-9]+$`)

func hash(path string) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return "missing"
	}
	return fmt.Sprintf("%x", sha256.Sum256(b))
}

// run runs mrbound with args in dir and records the outcome; inputs are
// hashed before and after.
func (a *auditor) run(class, name, dir string, inputs []string, args ...string) outcome {
	before := map[string]string{}
	for _, in := range inputs {
		before[in] = hash(in)
	}
	ctx, cancel := context.WithTimeout(context.Background(), a.timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, a.bin, args...)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err := cmd.Run()
	o := outcome{class: class, name: name}
	var ee *exec.ExitError
	switch {
	case ctx.Err() != nil:
		o.code = -1
	case errors.As(err, &ee):
		o.code = exitCode(ee)
	case err != nil:
		o.code = -2
		o.note = err.Error()
	}
	a.inspect(&o, dir, stderr.String(), before)
	a.out = append(a.out, o)
	return o
}

func (a *auditor) inspect(o *outcome, dir, stderr string, before map[string]string) {
	o.oneLine = strings.Count(strings.TrimRight(stderr, "\n"), "\n") == 0
	o.panicked = strings.Contains(stderr, "goroutine ") || strings.Contains(stderr, "panic:") || strings.Contains(stderr, "internal error")
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && tmpName.MatchString(d.Name()) {
			o.temp = true
		}
		if err == nil && d.Name() == "PWNED" {
			o.marker = true
		}
		return nil
	})
	for in, h := range before {
		if hash(in) != h {
			o.changed = true
		}
	}
	if strings.TrimSpace(stderr) != "" {
		o.note = strings.TrimSpace(strings.SplitN(stderr, "\n", 2)[0])
	}
	if a.verbose {
		fmt.Fprintf(os.Stderr, "%-10s %-40s exit %3d %s\n", o.class, o.name, o.code, o.note)
	}
}

func main() {
	bin := flag.String("mrbound", "bin/mrbound", "the mrbound binary to audit")
	examples := flag.String("examples", "examples", "the example scenarios")
	seed := flag.Uint64("seed", 1, "seed of the mutations")
	mutations := flag.Int("mutations", 12, "mutations per example scenario")
	timeout := flag.Duration("timeout", 60*time.Second, "per-run timeout")
	verbose := flag.Bool("v", false, "print every run")
	flag.Parse()
	abs, err := filepath.Abs(*bin)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	a := &auditor{bin: abs, timeout: *timeout, rng: rand.New(rand.NewPCG(*seed, 29)), verbose: *verbose}
	work, err := os.MkdirTemp("", "mrbound-hostile")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	defer os.RemoveAll(work)
	a.injection(work)
	a.outputs(work, *examples)
	a.usage(work, *examples)
	a.scenarios(work, *examples, *mutations)
	a.swim(work)
	a.signals(work)
	a.report()
	for _, o := range a.out {
		if o.finding() != "" {
			os.Exit(1)
		}
	}
}

func (a *auditor) report() {
	classes := map[string][]outcome{}
	var names []string
	for _, o := range a.out {
		if _, ok := classes[o.class]; !ok {
			names = append(names, o.class)
		}
		classes[o.class] = append(classes[o.class], o)
	}
	fmt.Println("| class | runs | exit 0 | exit 1 | exit 2 | signal | timeout | one-line errors | panics | temp files | inputs changed | injected |")
	fmt.Println("|---|---|---|---|---|---|---|---|---|---|---|---|")
	tot := make([]int, 11)
	for _, c := range names {
		n := make([]int, 11)
		for _, o := range classes[c] {
			n[0]++
			switch {
			case o.code == 0:
				n[1]++
			case o.code == 1:
				n[2]++
			case o.code == 2:
				n[3]++
			case o.code > 128:
				n[4]++
			case o.code == -1:
				n[5]++
			}
			if o.code == 1 && o.oneLine {
				n[6]++
			}
			for i, b := range []bool{o.panicked, o.temp, o.changed, o.marker} {
				if b {
					n[7+i]++
				}
			}
		}
		for i := range n {
			tot[i] += n[i]
		}
		fmt.Printf("| %s | %d | %d | %d | %d | %d | %d | %d of %d | %d | %d | %d | %d |\n", c, n[0], n[1], n[2], n[3], n[4], n[5], n[6], n[2], n[7], n[8], n[9], n[10])
	}
	fmt.Printf("| all | %d | %d | %d | %d | %d | %d | %d of %d | %d | %d | %d | %d |\n", tot[0], tot[1], tot[2], tot[3], tot[4], tot[5], tot[6], tot[2], tot[7], tot[8], tot[9], tot[10])
	var findings []string
	for _, o := range a.out {
		if f := o.finding(); f != "" {
			findings = append(findings, fmt.Sprintf("%s %s: %s (exit %d: %s)", o.class, o.name, f, o.code, o.note))
		}
	}
	sort.Strings(findings)
	fmt.Printf("\nfindings: %d\n", len(findings))
	for _, f := range findings {
		fmt.Println("  " + f)
	}
}

// hostileValues are what an attacker might put in a title or option.
var hostileValues = []string{
	"x\ntouch PWNED", "x\r\ntouch PWNED", "x\u2028touch PWNED", "$(touch PWNED)", "`touch PWNED`",
	"'; touch PWNED; '", `"; touch PWNED; "`, "x;touch PWNED", "x\x00touch PWNED", "x && touch PWNED",
	"--comment=$(touch PWNED)", "-x\ntouch PWNED", "a b", "${IFS}touch${IFS}PWNED",
}

// plan writes a one-item compare sweep into dir/s.
func (a *auditor) plan(dir string) string {
	s := filepath.Join(dir, "s")
	cmd := exec.Command(a.bin, "compare", "--family", "mrcp-small", "--jobs", "2", "--lambdas", "1/60", "--seeds", "1", "--policies", "fifo", "--sweep", s)
	if out, err := cmd.CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "planning a sweep: %v: %s", err, out)
		os.Exit(1)
	}
	return s
}

// injection: hostile values in every field that reaches an sbatch script
// or a Kubernetes Job; a script that is written is run with sh.
func (a *auditor) injection(work string) {
	for i, v := range hostileValues {
		for _, field := range []string{"title", "partition", "sbatch-option", "mrbound", "image", "claim"} {
			dir := filepath.Join(work, fmt.Sprintf("inj-%d-%s", i, field))
			os.MkdirAll(dir, 0o755)
			s := a.plan(dir)
			fake := filepath.Join(dir, "fake-mrbound")
			os.WriteFile(fake, []byte("#!/bin/sh\necho ran > ran\n"), 0o755)
			args := []string{"sweep", "submit", s, "--engine", "slurm", "--dry-run", "--mrbound", fake}
			switch field {
			case "title":
				m := filepath.Join(s, "sweep.json")
				var doc map[string]any
				b, _ := os.ReadFile(m)
				json.Unmarshal(b, &doc)
				doc["title"] = v
				b, _ = json.Marshal(doc)
				os.WriteFile(m, b, 0o644)
			case "partition":
				args = append(args, "--partition", v)
			case "sbatch-option":
				args = append(args, "--sbatch-option", v)
			case "mrbound":
				args[len(args)-1] = fake + " " + v
			case "image", "claim":
				args = []string{"sweep", "submit", s, "--engine", "kubernetes", "--image", "img", "--claim", "c"}
				args[map[string]int{"image": 5, "claim": 7}[field]] = v
			}
			o := a.run("injection", fmt.Sprintf("%s %q", field, v), dir, nil, args...)
			if o.code != 0 {
				continue
			}
			if field == "image" || field == "claim" {
				matches, _ := filepath.Glob(filepath.Join(s, "*.json"))
				for _, mj := range matches {
					if filepath.Base(mj) == "sweep.json" {
						continue
					}
					b, _ := os.ReadFile(mj)
					if !json.Valid(b) || !bytes.Contains(b, []byte(jsonString(v))) {
						a.out[len(a.out)-1].marker = true
						a.out[len(a.out)-1].note = "the Job does not carry the value intact"
					}
				}
				continue
			}
			sh := exec.Command("sh", filepath.Join(s, "sweep.sbatch"))
			sh.Dir = dir
			sh.Run()
			a.inspect(&a.out[len(a.out)-1], dir, "", nil)
		}
	}
}

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b[1 : len(b)-1])
}

// outputs: an output that names an input, a manifest, a directory or a
// device.
func (a *auditor) outputs(work, examples string) {
	dir := filepath.Join(work, "outputs")
	os.MkdirAll(filepath.Join(dir, "d"), 0o755)
	ex, _ := filepath.Abs(examples)
	b, _ := os.ReadFile(filepath.Join(ex, "mrcp-stream.json"))
	os.WriteFile(filepath.Join(dir, "m.json"), b, 0o644)
	os.Symlink("m.json", filepath.Join(dir, "l.json"))
	os.Link(filepath.Join(dir, "m.json"), filepath.Join(dir, "h.json"))
	exec.Command(a.bin, "export", filepath.Join(ex, "..", "cmd", "mrbound", "testdata", "models", "tiny.mps"), "-o", filepath.Join(dir, "a.mps")).Run()
	syscall.Mkfifo(filepath.Join(dir, "fifo"), 0o644)
	// A private copy of /dev/null (character device 1:3) when we may make
	// one: an mrbound that writes through a rename replaces the device it
	// is given, and must never be given the real /dev/null here.
	if err := syscall.Mknod(filepath.Join(dir, "null"), syscall.S_IFCHR|0o666, 1<<8|3); err != nil {
		os.WriteFile(filepath.Join(dir, "null"), nil, 0o644) // then the case tests a plain file
	}
	s := a.plan(dir)
	inputs := []string{filepath.Join(dir, "m.json"), filepath.Join(dir, "a.mps"), filepath.Join(s, "sweep.json")}
	for _, args := range [][]string{
		{"solve", "m.json", "--schedule", "m.json"}, {"solve", "m.json", "--svg", "m.json"}, {"solve", "m.json", "--svg", "./m.json"},
		{"solve", "m.json", "--svg", "l.json"}, {"solve", "l.json", "--schedule", "m.json"}, {"solve", "m.json", "--schedule", "h.json"},
		{"solve", "m.json", "--svg", "d/../m.json"}, {"solve", "m.json", "--svg", "d"}, {"solve", "m.json", "--svg", "null"},
		{"solve", "m.json", "--svg", "fifo"}, {"solve", "m.json", "--svg", "x.svg", "--schedule", "x.svg"},
		{"simulate", "m.json", "--trace", "m.json"}, {"simulate", "m.json", "--svg", "l.json"}, {"simulate", "m.json", "--trace", "d"},
		{"simulate", "m.json", "--trace", "null"}, {"export", "a.mps", "-o", "a.mps"}, {"export", "a.mps", "--format", "lp", "-o", "./a.mps"},
		{"sweep", "collect", "s", "--out", "s/sweep.json"}, {"sweep", "collect", "s/sweep.json", "--out", "s/sweep.json"},
		{"sweep", "collect", "s", "--out", "s/results/x.csv"}, {"sweep", "collect", "s", "--out", "d"},
		{"compare", "--policies", "fifo", "m.json", "--out", "m.json"}, {"compare", "--policies", "fifo", "m.json", "--svg", "d"},
		{"generate", "mrcp", "-o", "d"}, {"generate", "mrcp", "-o", "null"},
	} {
		a.run("outputs", strings.Join(args, " "), dir, inputs, args...)
	}
}

// usage: unknown flags and commands, values that do not parse, missing
// values and required flags.
func (a *auditor) usage(work, examples string) {
	ex, _ := filepath.Abs(filepath.Join(examples, "mrcp-stream.json"))
	dir := filepath.Join(work, "usage")
	os.MkdirAll(dir, 0o755)
	for _, args := range [][]string{
		{"--nosuch"}, {"nosuch"}, {"solve", "--nosuch", ex}, {"generate", "nosuch"}, {"sweep", "nosuch"}, {"table", "nosuch"},
		{"simulate", ex, "--nodes", "abc"}, {"simulate", ex, "--nodes", "1e9x"}, {"solve", ex, "--time-limit", "xyz"},
		{"solve", ex, "--time-limit", "-5s"}, {"solve", ex, "--gap", "x"}, {"compare", "--family"}, {"compare", ex},
		{"generate", "tumm"}, {"generate", "mrcp", "--jobs", "x"}, {"generate", "mrcp", "--lambda", "x"}, {"solve"},
		{"solve", ex, "extra.json"}, {"simulate"}, {"sweep", "collect"}, {"sweep", "submit", "nodir"}, {"export"},
		{"solve", "nosuch.json"}, {"solve", "/dev/null"}, {"solve", dir}, {"simulate", ex, "--policy", "nosuch"},
		{"sweep", "run", ex}, {"stats", "nosuch.mps"}, {"simulate", ex, "--nodes", "-3"}, {"solve", ex, "--solver", "nosuch"},
	} {
		a.run("usage", strings.Join(args, " "), dir, []string{ex}, args...)
	}
}

// scenarios: each example mutated; solve (2 s limit) and simulate.
func (a *auditor) scenarios(work, examples string, n int) {
	files, _ := filepath.Glob(filepath.Join(examples, "*.json"))
	sort.Strings(files)
	number := regexp.MustCompile(`: (-?[0-9][0-9.eE+-]*)`)
	key := regexp.MustCompile(`"([a-z_]+)": `)
	for _, f := range files {
		good, _ := os.ReadFile(f)
		for i := 0; i < n; i++ {
			bad := append([]byte{}, good...)
			var what string
			switch i % 6 {
			case 0: // a key repeated
				locs := key.FindAllIndex(bad, -1)
				l := locs[a.rng.IntN(len(locs))]
				k := bad[l[0]:l[1]]
				bad = append(append(append([]byte{}, bad[:l[0]]...), append(append([]byte{}, k...), []byte("0, ")...)...), bad[l[0]:]...)
				what = "repeated " + strings.TrimSpace(string(k))
			case 1: // a byte dropped
				p := a.rng.IntN(len(bad))
				what = fmt.Sprintf("byte %d dropped", p)
				bad = append(bad[:p], bad[p+1:]...)
			case 2: // a byte inserted
				p := a.rng.IntN(len(bad))
				chars := "{}[],:\"x0-"
				c := chars[a.rng.IntN(len(chars))]
				what = fmt.Sprintf("%q inserted at %d", c, p)
				bad = append(bad[:p], append([]byte{c}, bad[p:]...)...)
			case 3: // cut short
				p := a.rng.IntN(len(bad))
				what = fmt.Sprintf("cut at %d", p)
				bad = bad[:p]
			case 4, 5: // a number made huge or negative
				locs := number.FindAllSubmatchIndex(bad, -1)
				l := locs[a.rng.IntN(len(locs))]
				v := []string{"1e308", "-1", "9223372036854775807", "1e19", "-1e308", "0"}[a.rng.IntN(6)]
				what = fmt.Sprintf("number at %d → %s", l[2], v)
				bad = append(append(append([]byte{}, bad[:l[2]]...), v...), bad[l[3]:]...)
			}
			dir := filepath.Join(work, fmt.Sprintf("sc-%s-%d", filepath.Base(f), i))
			os.MkdirAll(dir, 0o755)
			in := filepath.Join(dir, "in.json")
			os.WriteFile(in, bad, 0o644)
			name := filepath.Base(f) + ": " + what
			a.run("scenarios", "solve "+name, dir, []string{in}, "solve", in, "--time-limit", "2s", "--schedule", filepath.Join(dir, "s.json"), "--svg", filepath.Join(dir, "s.svg"))
			a.run("scenarios", "simulate "+name, dir, []string{in}, "simulate", in, "--trace", filepath.Join(dir, "t.tsv"), "--svg", filepath.Join(dir, "t.svg"))
		}
	}
}

// swim: repeated ids, times going back, fields that do not parse.
func (a *auditor) swim(work string) {
	dir := filepath.Join(work, "swim")
	os.MkdirAll(dir, 0o755)
	for i, text := range []string{
		"a\t0\t0\t1\t1\t1\na\t1\t1\t1\t1\t1\n", "a\t5\t0\t1\t1\t1\nb\t4\t0\t1\t1\t1\n", "a\t0\t0\t1\t1\n",
		"a\t1e308\t0\t1\t1\t1\n", "a\t-1\t0\t1\t1\t1\n", "a\tNaN\t0\t1\t1\t1\n", "\t0\t0\t1\t1\t1\n", "",
		"a\t0\t0\t-5\t1\t1\n", "a\t0\t0\t1\t1\t1\nb\t0\t0\t1\t1\t1\nb\t0\t0\t1\t1\t1\n", "a\t0\t0\tx\t1\t1\n",
	} {
		in := filepath.Join(dir, fmt.Sprintf("t%d.tsv", i))
		os.WriteFile(in, []byte(text), 0o644)
		a.run("swim", fmt.Sprintf("%q", text), dir, []string{in}, "simulate", in, "--trace", filepath.Join(dir, "out.tsv"))
	}
}

// signals: SIGINT or SIGTERM while a simulation writes its outputs.
func (a *auditor) signals(work string) {
	for i, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGINT, syscall.SIGTERM} {
		dir := filepath.Join(work, fmt.Sprintf("sig-%d", i))
		os.MkdirAll(dir, 0o755)
		in := filepath.Join(dir, "day.tsv")
		var b strings.Builder
		for j := range 4000 {
			fmt.Fprintf(&b, "job%d\t%d\t1\t%d\t%d\t%d\n", j, j, 20<<26, 4<<26, 1<<26)
		}
		os.WriteFile(in, []byte(b.String()), 0o644)
		cmd := exec.Command(a.bin, "simulate", in, "--nodes", "20", "--trace", filepath.Join(dir, "t.tsv"), "--svg", filepath.Join(dir, "t.svg"))
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		cmd.Start()
		// Half the runs are stopped while an output is being written, half
		// at a random moment before.
		deadline := time.Now().Add(a.timeout)
		wait := time.Duration(a.rng.IntN(1500)) * time.Millisecond
		start := time.Now()
		for time.Now().Before(deadline) {
			tmps, _ := filepath.Glob(filepath.Join(dir, ".*.tmp*"))
			if len(tmps) > 0 || (i >= 2 && time.Since(start) > wait) {
				break
			}
			time.Sleep(time.Millisecond)
		}
		cmd.Process.Signal(sig)
		err := cmd.Wait()
		o := outcome{class: "signals", name: fmt.Sprintf("%v %d", sig, i)}
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			o.code = exitCode(ee)
		}
		a.inspect(&o, dir, stderr.String(), map[string]string{})
		a.out = append(a.out, o)
	}
}

// exitCode is the process's exit code, or 128+n when signal n killed it
// (as a shell reports it).
func exitCode(ee *exec.ExitError) int {
	if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return 128 + int(ws.Signal())
	}
	return ee.ExitCode()
}
