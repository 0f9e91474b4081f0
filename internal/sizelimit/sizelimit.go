package sizelimit

import (
	"errors"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/mrbound/mrbound/badinput"
)

// FallbackBudget is the budget when the machine's memory cannot be read
// (outside Linux): 8 GiB, what a laptop or a CI runner has to spare.
const FallbackBudget int64 = 8 << 30

// EnvVar names the environment variable that sets the budget when the
// --max-memory flag is not given.
const EnvVar = "MRBOUND_MAX_MEMORY"

// Bytes per unit of what an input implies. Each was measured as the peak
// resident set (/usr/bin/time -v) divided by the count, on the run named,
// and rounded up; docs/reliability.md has the runs.
const (
	// SimTask: one task of a simulated workload, from its TaskSpec to its
	// runtime state, streamed check and report, at the heaviest command on
	// that path: `compare --policies fifo,fair,hfsp,hfsp-aftermaps` of the
	// FB-2009 day at --block-mb 4 (6.44 M tasks, 3,000 nodes, bounds and
	// offline side) peaks at 1,283 MB, 199 B a task; `simulate --json
	// --trace` of it 151 B; a TuMM batch of 1.8 M tasks 100–160 B. (768 B
	// was measured before the trace was streamed and TaskSpec compacted.)
	SimTask = 256
	// SimReplica: one replica of a map's block in the locality tables
	// (an int32 and a TaskID, with the per-node ranges).
	SimReplica = 16
	// SimNode: one simulated node (runtime state, heartbeat event, its
	// share of the offer tables): 10^6 nodes of 2+2 slots add 228 MB over
	// 10^3 nodes on the same 50-job trace, 230 B a node.
	SimNode = 256
	// SimSlot: one slot of a simulated node. The engine keeps counts only
	// (10^3 nodes of 10^5 map slots take no more than of 2), but the
	// exact bound (lowerbound/exact.go) and the checker keep one int64 per
	// slot.
	SimSlot = 8
	// ModelNonzero: one nonzero of a model being built, with its share of
	// the columns, rows, names and the CSC copy: the 200-job mixed MRCP
	// stream (57.5 M nonzeros, 4.4 M columns, 3.3 M rows) peaks at 4.97 GB,
	// 86 B a nonzero.
	ModelNonzero = 88
	// ModelColumn: one column beyond its nonzeros (bounds, cost, type,
	// key and name in the builder's family map).
	ModelColumn = 160
	// ScenarioTask: one task of a loaded or generated scenario with its
	// per-task state in the heuristics and checkers (record, durations,
	// window, schedule entry).
	ScenarioTask = 256
	// ScenarioSlot: one slot of a scenario's resources: the MRCP heuristic,
	// deadline search, decoder and checker and TuMM's per-slot counts each
	// keep an int per slot, about eight of them at once.
	ScenarioSlot = 64
	// ScenarioTimeUnit: one time unit of a scenario's horizon for one
	// resource and slot kind: the MRCP greedy heuristic's usage table is an
	// int per unit, grown by append (up to twice that while it grows).
	ScenarioTimeUnit = 16
	// SweepItem: one item of a sweep plan: its index, parameters and
	// record path (a few hundred bytes of JSON each) and its state in the
	// pool.
	SweepItem = 512
)

// machineMemory is the machine's memory in bytes, 0 when unknown; read once.
var machineMemory = sync.OnceValue(readMachineMemory)

// readMachineMemory reads MemTotal from /proc/meminfo (Linux).
func readMachineMemory() int64 {
	b, err := os.ReadFile("/proc/meminfo")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		f := strings.Fields(line)
		if len(f) == 3 && f[0] == "MemTotal:" && f[2] == "kB" {
			if kb, err := strconv.ParseInt(f[1], 10, 64); err == nil && kb > 0 {
				return kb << 10
			}
		}
	}
	return 0
}

// DefaultBudget is the budget without --max-memory or MRBOUND_MAX_MEMORY:
// the machine's memory (an input implying more would be killed by the
// kernel anyway), FallbackBudget where it cannot be read.
func DefaultBudget() int64 {
	if m := machineMemory(); m > 0 {
		return m
	}
	return FallbackBudget
}

// budget is the override set by SetBudget; 0 means none.
var budget atomic.Int64

// Budget is the memory an input may imply: the value given to SetBudget,
// else MRBOUND_MAX_MEMORY when set and valid, else DefaultBudget().
func Budget() int64 {
	if b := budget.Load(); b > 0 {
		return b
	}
	if s := os.Getenv(EnvVar); s != "" {
		if b, err := ParseBytes(s); err == nil {
			return b
		}
	}
	return DefaultBudget()
}

// SetBudget makes b (> 0) the budget of this process, or removes the
// override (b ≤ 0). It returns a function that restores the previous one,
// for tests.
func SetBudget(b int64) (restore func()) {
	old := budget.Swap(max(b, 0))
	return func() { budget.Store(old) }
}

// CheckEnv reports a malformed MRBOUND_MAX_MEMORY, which Budget otherwise
// ignores; the CLI calls it once at start.
func CheckEnv() error {
	s := os.Getenv(EnvVar)
	if s == "" {
		return nil
	}
	if _, err := ParseBytes(s); err != nil {
		return badinput.Errorf("%s: %v", EnvVar, err)
	}
	return nil
}

// units are the size suffixes ParseBytes reads, binary and decimal.
var units = []struct {
	suffix string
	mult   float64
}{
	{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30}, {"TiB", 1 << 40},
	{"KB", 1e3}, {"MB", 1e6}, {"GB", 1e9}, {"TB", 1e12},
	{"K", 1 << 10}, {"M", 1 << 20}, {"G", 1 << 30}, {"T", 1 << 40},
	{"B", 1},
}

// ParseBytes reads a positive size: a number (bytes) with an optional unit
// KiB, MiB, GiB, TiB (powers of 1024; K, M, G, T alike) or KB, MB, GB, TB
// (powers of 1000), e.g. 64GiB, 500MB, 1.5G, 1e9.
func ParseBytes(s string) (int64, error) {
	t := strings.TrimSpace(s)
	mult := 1.0
	for _, u := range units {
		if len(t) > len(u.suffix) && strings.EqualFold(t[len(t)-len(u.suffix):], u.suffix) {
			t, mult = strings.TrimSpace(t[:len(t)-len(u.suffix)]), u.mult
			break
		}
	}
	v, err := strconv.ParseFloat(t, 64)
	if err != nil || math.IsNaN(v) {
		return 0, fmt.Errorf("%q is not a size (e.g. 64GiB, 500MB, 1e9)", s)
	}
	b := v * mult
	if !(b >= 1) || b >= math.MaxInt64 {
		return 0, fmt.Errorf("%q is not a size between 1 byte and 8 EiB", s)
	}
	return int64(b), nil
}

// FormatBytes writes b in the largest binary unit that keeps it ≥ 1
// (1.5 GiB, 640 MiB, 900 B).
func FormatBytes(b float64) string {
	for _, u := range []struct {
		name string
		mult float64
	}{{"EiB", 1 << 60}, {"PiB", 1 << 50}, {"TiB", 1 << 40}, {"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10}} {
		if b >= u.mult {
			return strconv.FormatFloat(b/u.mult, 'g', 3, 64) + " " + u.name
		}
	}
	return strconv.FormatFloat(b, 'f', 0, 64) + " B"
}

// Check refuses count units of what (e.g. "map tasks") at perUnit bytes each
// when they would take more than the budget. field names the input that
// implies them (a flag, a file:line, a JSON path); the error wraps
// badinput.Err and reads, on one line,
//
//	field: 1e+09 map tasks need about 477 GiB, more than the memory budget of 8 GiB (raise it with --max-memory or MRBOUND_MAX_MEMORY)
//
// count is a float64 so that products of huge factors neither overflow nor
// wrap; a NaN or negative count is refused too.
func Check(field string, count float64, perUnit int64, what string) error {
	return CheckBytes(field, count*float64(perUnit), fmt.Sprintf("%s %s", formatCount(count), what))
}

// CheckBytes is Check for an estimate already in bytes; what says what
// needs them ("a model of 3e+06 columns and 6e+07 nonzeros").
func CheckBytes(field string, bytes float64, what string) error {
	limit := Budget()
	if bytes >= 0 && bytes <= float64(limit) { // false for NaN
		return nil
	}
	return &tooLarge{fmt.Sprintf("%s: %s need about %s, more than the memory budget of %s (raise it with --max-memory or %s)",
		field, what, FormatBytes(bytes), FormatBytes(float64(limit)), EnvVar)}
}

// ErrTooLarge is wrapped, with badinput.Err, by every refusal of Check and
// CheckBytes, so that a caller can tell a size refusal from other bad input
// (a report that can do without the oversized part, say).
var ErrTooLarge = errors.New("too large for the memory budget")

// tooLarge is a refusal: its message alone, wrapping both sentinels.
type tooLarge struct{ msg string }

func (e *tooLarge) Error() string   { return e.msg }
func (e *tooLarge) Unwrap() []error { return []error{badinput.Err, ErrTooLarge} }

// formatCount writes an exact integer below 10^15, else %g.
func formatCount(n float64) string {
	if n >= 0 && n < 1e15 && n == math.Trunc(n) {
		return strconv.FormatInt(int64(n), 10)
	}
	return strconv.FormatFloat(n, 'g', 3, 64)
}
