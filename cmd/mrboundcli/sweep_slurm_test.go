package mrboundcli

import (
	"bytes"
	"encoding/csv"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mrbound/mrbound/internal/slurmtest"
	"github.com/mrbound/mrbound/sweep"
)

// slurmWait bounds the wait for the Slurm sweep: ten instances of scenario 1
// take about a second each on an idle machine, many times that under load.
const slurmWait = 6 * time.Minute

// itemTimeLimit is each instance's solve limit. The local and the Slurm
// tables must agree beyond their time columns, so no item may stop at its
// limit: it is far above an idle machine's second per instance (30 s was
// reached at a load average of 20).
const itemTimeLimit = "120s"

// TestSweepOnSlurm starts a real one-node Slurm cluster (slurm-wlm 22.05 and
// munge, internal/slurmtest), plans a 12-item Jlassi table sweep, runs two
// items by hand, submits the sweep through the built mrbound binary (`sweep
// submit --engine slurm`), waits for the array, collects it and compares the
// table and records with the same sweep run by the local pool. Only the
// wall-clock columns may differ. The two items run by hand are not in the
// array; the array is cancelled (scancel) once two of its items are done and
// submitted again: the new array holds exactly the items without a result,
// and no finished item is attempted twice.
func TestSweepOnSlurm(t *testing.T) {
	if testing.Short() {
		t.Skip("starts Slurm daemons and solves 24 instances (about 30 s)")
	}
	t0 := time.Now()
	cluster := slurmtest.Start(t)
	t.Logf("Slurm up (munged, slurmctld, slurmd, node idle) in %v", time.Since(t0).Round(100*time.Millisecond))
	bin := buildMrbound(t)
	root := t.TempDir()
	plan := []string{"table", "jlassi", "--scenarios", "1", "--instances", "12", "--time-limit", itemTimeLimit, "--sweep"}
	local, onSlurm := filepath.Join(root, "local"), filepath.Join(root, "slurm")
	for _, dir := range []string{local, onSlurm} {
		mustRun(t, append(append([]string{}, plan...), dir)...)
	}
	t0 = time.Now()
	mustRun(t, "sweep", "submit", local, "--jobs", "2")
	t.Logf("local pool ran 12 items in %v", time.Since(t0).Round(100*time.Millisecond))

	m, err := sweep.Load(onSlurm)
	if err != nil {
		t.Fatal(err)
	}
	// Items 0 and 5 are run by hand first (as if an earlier submission had
	// finished them); the array must hold the others only.
	for _, i := range []string{"0", "5"} {
		mustRun(t, "sweep", "run", onSlurm, "--index", i)
	}
	submit := func() string {
		t.Helper()
		cmd := exec.Command(bin, "sweep", "submit", onSlurm, "--engine", "slurm", "--throttle", "2", "--mem", "512")
		cmd.Env = cluster.Env()
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("sweep submit --engine slurm: %v\n%s", err, out)
		}
		job := regexp.MustCompile(`submitted Slurm job (\d+)`).FindSubmatch(out)
		if job == nil {
			t.Fatalf("no job ID in: %s", out)
		}
		return string(job[1])
	}
	job := submit()
	script, _ := os.ReadFile(filepath.Join(onSlurm, "sweep.sbatch"))
	for _, want := range []string{"#SBATCH --array=1-4,6-11%2\n", "#SBATCH --time=0-00:05:00\n", "#SBATCH --mem=512M\n",
		"#SBATCH --output=" + filepath.Join(onSlurm, "logs", "%a.slurm.out") + "\n", "exec " + bin + " sweep run " + filepath.Join(onSlurm, "sweep.json")} {
		if !bytes.Contains(script, []byte(want)) {
			t.Errorf("sbatch script lacks %q:\n%s", want, script)
		}
	}

	// Kill the array mid-way (scancel) once two more items are done and
	// another is running, then
	// submit again: only the items without a result are in the new array,
	// and no finished item runs twice.
	start := time.Now()
	running := func() bool { // an item has started and not finished
		for _, i := range sweep.Todo(m) {
			if sweep.Attempts(m, i) > 0 {
				return true
			}
		}
		return false
	}
	for (len(m.Items)-len(sweep.Todo(m)) < 4 || !running()) && time.Since(start) < slurmWait {
		time.Sleep(20 * time.Millisecond)
	}
	if out, err := cluster.Command(t.Context(), "scancel", job).CombinedOutput(); err != nil {
		t.Fatalf("scancel %s: %v\n%s", job, err, out)
	}
	cluster.WaitJob(t, job, slurmWait)
	doneBefore := map[int]bool{}
	todo := sweep.Todo(m)
	for i := range m.Items {
		doneBefore[i] = !slices.Contains(todo, i)
	}
	t.Logf("scancel after %v: %d of %d items done", time.Since(start).Round(100*time.Millisecond), len(m.Items)-len(todo), len(m.Items))
	if len(todo) == 0 {
		t.Log("the array finished before scancel took effect: nothing to resubmit")
	} else {
		rep, _, err := sweep.Status(m)
		if err != nil || len(rep.Missing) != len(todo) || len(rep.Failed) != 0 {
			t.Errorf("after scancel: %s (%v); want the %d unfinished items missing, none failed", rep.Summary(), err, len(todo))
		}
		// The tasks running at the scancel got SIGTERM and said so.
		interrupted := 0
		for _, i := range todo {
			if sweep.Attempts(m, i) == 0 {
				continue
			}
			interrupted++
			if log, _ := os.ReadFile(m.LogPath(i)); !bytes.Contains(log, []byte("== interrupted")) {
				t.Errorf("item %d was running at the scancel; its log does not say it was interrupted:\n%s", i, log)
			}
		}
		t.Logf("%d items were running at the scancel", interrupted)
		job = submit()
		script, _ = os.ReadFile(filepath.Join(onSlurm, "sweep.sbatch"))
		if want := "#SBATCH --array=" + sweep.FormatIndices(todo) + "%2\n"; !bytes.Contains(script, []byte(want)) {
			t.Errorf("resubmitted script lacks %q:\n%s", want, script)
		}
		cluster.WaitJob(t, job, slurmWait)
	}
	t.Logf("Slurm ran the sweep (with the scancel and the resubmission) in %v", time.Since(start).Round(100*time.Millisecond))
	for i := range m.Items {
		_, err := os.Stat(filepath.Join(onSlurm, "logs", strconv.Itoa(i)+".slurm.out"))
		byHand := i == 0 || i == 5
		if byHand != os.IsNotExist(err) {
			t.Errorf("item %d: Slurm log present = %v, run by hand = %v", i, err == nil, byHand)
		}
		if a := sweep.Attempts(m, i); doneBefore[i] && a != 1 {
			t.Errorf("item %d was done before the resubmission, yet attempted %d times", i, a)
		}
	}
	slurmTable := mustRun(t, "sweep", "collect", onSlurm, "--out", filepath.Join(onSlurm, "table.md"))
	localTable := mustRun(t, "sweep", "collect", local, "--out", filepath.Join(local, "table.md"))
	if a, b := maskTimes(t, slurmTable), maskTimes(t, localTable); a != b {
		t.Errorf("tables differ beyond the time columns:\nslurm:\n%s\nlocal:\n%s", slurmTable, localTable)
	}
	a, b := readRecords(t, filepath.Join(onSlurm, "table.md.instances.csv")), readRecords(t, filepath.Join(local, "table.md.instances.csv"))
	if a != b || strings.Count(a, "\n") != 13 {
		t.Errorf("records differ beyond the seconds column:\nslurm:\n%s\nlocal:\n%s", a, b)
	}
	if !strings.Contains(slurmTable, "| Sc1 | native | 12 | 0 | 12 |") {
		t.Errorf("table does not show 12 solved instances:\n%s", slurmTable)
	}
}

// maskTimes blanks the T_min, T_avg and T_max columns of a Markdown table:
// wall-clock times are the only thing allowed to differ between engines.
func maskTimes(t *testing.T, md string) string {
	var out []string
	for _, line := range strings.Split(md, "\n") {
		cells := strings.Split(line, "|")
		if len(cells) > 14 {
			cells[11], cells[12], cells[13] = " X ", " X ", " X "
		}
		out = append(out, strings.Join(cells, "|"))
	}
	return strings.Join(out, "\n")
}

// readRecords reads a records file without its seconds column.
func readRecords(t *testing.T, path string) string {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, r := range rows {
		b.WriteString(strings.Join(append(r[:6:6], r[7:]...), ",") + "\n")
	}
	return b.String()
}
