package jlassi

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"

	"github.com/jedib0t/go-pretty/v6/table"

	"github.com/mrbound/mrbound/instances/jlassiscenario"
	"github.com/mrbound/mrbound/solve"
	"github.com/mrbound/mrbound/sweep/record"
)

// Record is the outcome of one instance of the scenario table.
type Record struct {
	Scenario int
	Seed     int64
	Solver   string
	Status   solve.Status
	T        int
	Nodes    int64
	Seconds  float64
	// RealTime is the best schedule's makespan (NaN without one); Bound the
	// solver's dual bound; LPBound the LP relaxation's optimum (NaN when not
	// solved); Gap the solver's relative gap.
	RealTime, Bound, LPBound, Gap float64
	Verified                      bool
	// Objective is what was minimised (zero: RealTime, as in records files
	// written before the column existed); Value is the best schedule's
	// objective (NaN without one). Under RealTime, Value = RealTime.
	Objective Objective
	Value     float64
}

// recordHeader is the records file's header: realtime_s is RealTime in
// seconds. Files written before the column named its unit have
// unitlessHeader; files written before the objective columns have
// legacyHeader (their objective is RealTime).
var (
	recordHeader = []string{"scenario", "seed", "solver", "status", "T", "nodes", "seconds", "realtime_s", "bound", "lp_bound", "gap", "verified",
		"objective", "value"}
	unitlessHeader = append(append([]string(nil), legacyHeader...), "objective", "value")
	legacyHeader   = []string{"scenario", "seed", "solver", "status", "T", "nodes", "seconds", "realtime", "bound", "lp_bound", "gap", "verified"}
)

func ff(v float64) string { return strconv.FormatFloat(v, 'g', 10, 64) }

func (r Record) fields() []string {
	return []string{strconv.Itoa(r.Scenario), strconv.FormatInt(r.Seed, 10), r.Solver, r.Status.String(),
		strconv.Itoa(r.T), strconv.FormatInt(r.Nodes, 10), ff(r.Seconds), ff(r.RealTime), ff(r.Bound),
		ff(r.LPBound), ff(r.Gap), strconv.FormatBool(r.Verified), r.objective().String(), ff(r.value())}
}

func (r Record) objective() Objective {
	if r.Objective == ObjectiveUnknown {
		return RealTime
	}
	return r.Objective
}

// value is the objective of the best schedule; legacy records have only
// RealTime.
func (r Record) value() float64 {
	if r.objective() == RealTime && (r.Value == 0 || math.IsNaN(r.Value)) {
		return r.RealTime
	}
	return r.Value
}

// Records reads and writes the records file of the table: one CSV row per
// instance (package record keeps it while the table runs, or writes it from
// a sweep's results).
var Records = record.Codec[Record]{Header: recordHeader, Fields: Record.fields, Parse: parseRecord,
	Legacy: [][]string{unitlessHeader, legacyHeader}}

func parseRecord(row []string) (Record, error) {
	var r Record
	var errs []error
	atoi := func(s string) int { v, err := strconv.Atoi(s); errs = append(errs, err); return v }
	atof := func(s string) float64 { v, err := strconv.ParseFloat(s, 64); errs = append(errs, err); return v }
	r.Scenario = atoi(row[0])
	r.Seed = int64(atoi(row[1]))
	r.Solver = row[2]
	errs = append(errs, r.Status.UnmarshalText([]byte(row[3])))
	r.T = atoi(row[4])
	r.Nodes = int64(atoi(row[5]))
	r.Seconds, r.RealTime, r.Bound, r.LPBound, r.Gap = atof(row[6]), atof(row[7]), atof(row[8]), atof(row[9]), atof(row[10])
	r.Verified = row[11] == "true"
	r.Objective, r.Value = RealTime, r.RealTime
	if len(row) == len(recordHeader) {
		errs = append(errs, r.Objective.UnmarshalText([]byte(row[12])))
		r.Value = atof(row[13])
	}
	return r, errors.Join(errs...)
}

// TableOptions choose the table's instances and solve.
type TableOptions struct {
	// Scenarios (1..7) and Instances per scenario (seeds 1..Instances).
	Scenarios []int
	Instances int
	// Solve's TimeLimit bounds each instance.
	Solve solve.Options
	Form  Form
	// Objective; zero means RealTime. TST (eq 1) is the paper's own.
	Objective Objective
	// Horizon; zero means Table 5's T, as in the paper.
	Horizon Horizon
	// Done lists records already computed (resuming); their instances are
	// skipped and they are part of the result.
	Done []Record
	// Emit, when set, receives each new record as soon as it is known.
	Emit func(Record) error
	// Progress, when set, is called with (instances settled, total).
	Progress func(done, total int)
}

// RunTable solves every (scenario, seed) not already in opts.Done and returns
// all the records.
func RunTable(ctx context.Context, opts TableOptions) ([]Record, error) {
	solver := opts.Solve.Solver
	if solver == "" {
		solver = solve.DefaultSolver
	}
	if opts.Objective == ObjectiveUnknown {
		opts.Objective = RealTime
	}
	have := map[[2]int64]bool{}
	recs := append([]Record(nil), opts.Done...)
	for _, r := range opts.Done {
		if r.Solver == solver && r.objective() == opts.Objective {
			have[[2]int64{int64(r.Scenario), r.Seed}] = true
		}
	}
	total := len(opts.Scenarios) * opts.Instances
	done := 0
	for _, sc := range opts.Scenarios {
		for seed := int64(1); seed <= int64(opts.Instances); seed++ {
			if have[[2]int64{int64(sc), seed}] {
				done++
				continue
			}
			if err := ctx.Err(); err != nil {
				return recs, err
			}
			if opts.Progress != nil {
				opts.Progress(done, total)
			}
			r, err := TableInstance(ctx, opts, sc, seed)
			if err != nil {
				return recs, err
			}
			recs = append(recs, r)
			if opts.Emit != nil {
				if err := opts.Emit(r); err != nil {
					return recs, err
				}
			}
			done++
		}
	}
	if opts.Progress != nil {
		opts.Progress(done, total)
	}
	return recs, nil
}

// TableInstance generates instance (scenario, seed) of the table and solves
// it as RunTable does (with the LP relaxation, at opts' horizon, Table 5's by
// default) into its record. An interrupted solve is ctx's error, not a
// record.
func TableInstance(ctx context.Context, opts TableOptions, sc int, seed int64) (Record, error) {
	if opts.Horizon.Mode == HorizonUnknown {
		opts.Horizon = Horizon{Mode: HorizonTable5}
	}
	solver := opts.Solve.Solver
	if solver == "" {
		solver = solve.DefaultSolver
	}
	s, err := jlassiscenario.Generate(sc, seed)
	if err != nil {
		return Record{}, err
	}
	in, err := jlassiscenario.Compile(s.Name, s)
	if err != nil {
		return Record{}, err
	}
	if opts.Objective == ObjectiveUnknown {
		opts.Objective = RealTime
	}
	rep, err := RunInstance(ctx, in, Options{Objective: opts.Objective, Form: opts.Form, Horizon: opts.Horizon, Solve: opts.Solve, LPBound: true})
	if err != nil {
		return Record{}, fmt.Errorf("scenario %d seed %d: %w", sc, seed, err)
	}
	if rep.Result.Status == solve.Interrupted {
		if err := ctx.Err(); err != nil {
			return Record{}, err
		}
		return Record{}, fmt.Errorf("scenario %d seed %d: %w", sc, seed, context.Canceled)
	}
	r := Record{Scenario: sc, Seed: seed, Solver: solver, Status: rep.Result.Status, T: rep.T,
		Nodes: rep.Result.Nodes, Seconds: rep.Result.Wall.Seconds(), RealTime: math.NaN(),
		Bound: rep.Result.Bound, LPBound: rep.LPBound, Gap: rep.Result.Gap(), Verified: rep.Verified(),
		Objective: opts.Objective, Value: math.NaN()}
	if rep.Schedule != nil {
		r.RealTime, r.Value = rep.Schedule.RealTime, rep.Result.Objective
	}
	return r, nil
}

// Row is one line of the Table 6 analogue.
type Row struct {
	Scenario  int
	Source    string // solver name, or "paper (CPLEX 12.2)"
	Instances int
	// The paper's columns.
	InFeas, Solved, MemLimit, TimLimit int
	NodesMin, NodesAvg, NodesMax       float64
	TimeMin, TimeAvg, TimeMax          float64
	UnitOfT                            float64
	// Ours. UnitOfT comes from the incumbents (and UnitFromIncumbents is
	// set) when no instance was solved to optimality. LPBound, RealTime and
	// Value average over the instances that have one (RealTime and Value:
	// the best verified schedule's, optimal or not; Value is its objective,
	// = RealTime under RealTime); LPGap averages (Value − LP)/Value; MaxGap
	// is the largest solver gap of the time-limited instances.
	Objective                               Objective
	LPBound, RealTime, Value, LPGap, MaxGap float64
	UnitFromIncumbents                      bool
	Unverified                              int
}

// Table6 is Table 6 of the paper (index = scenario). The paper "is
// concentrated on the time execution aspect and neglects cost" (§5): its
// objective is TST, eq 1.
var Table6 = [8]Row{{},
	{1, "paper", 20, 0, 20, 0, 0, 0, 7.95, 132, 0, 0.45, 1, 85.66, TST, nan, nan, nan, nan, nan, false, 0},
	{2, "paper", 20, 0, 20, 0, 0, 27, 42.5, 164, 0, 19.04, 174, 95.66, TST, nan, nan, nan, nan, nan, false, 0},
	{3, "paper", 20, 1, 18, 0, 1, 4, 5357.6, 62168, 6, 97.75, 1044, 122.4, TST, nan, nan, nan, nan, nan, false, 0},
	{4, "paper", 20, 3, 16, 1, 0, 0, 6675.15, 28365, 16, 292.36, 1313, 54.8, TST, nan, nan, nan, nan, nan, false, 0},
	{5, "paper", 20, 2, 18, 0, 0, 40, 132.8, 1791, 10, 66.9, 757, 94.62, TST, nan, nan, nan, nan, nan, false, 0},
	{6, "paper", 20, 4, 15, 0, 1, 115, 142, 389, 28, 185, 1641, 126.23, TST, nan, nan, nan, nan, nan, false, 0},
	{7, "paper", 20, 0, 20, 0, 0, 3, 61.25, 193, 5, 10.1, 22, 70.53, TST, nan, nan, nan, nan, nan, false, 0},
}

var nan = math.NaN()

// Summarize aggregates records into one row per (scenario, solver), in
// scenario order. As in the paper, node and time statistics cover the
// instances that ended infeasible or optimal, and the unit of T is the
// largest optimal RealTime divided by T (the largest incumbent's when none is
// optimal).
func Summarize(recs []Record) []Row {
	type key struct {
		sc        int
		solver    string
		objective Objective
	}
	var order []key
	groups := map[key][]Record{}
	for _, r := range recs {
		k := key{r.Scenario, r.Solver, r.objective()}
		if _, ok := groups[k]; !ok {
			order = append(order, k)
		}
		groups[k] = append(groups[k], r)
	}
	// Stable order: by scenario, then first appearance.
	for i := 1; i < len(order); i++ {
		for j := i; j > 0 && order[j].sc < order[j-1].sc; j-- {
			order[j], order[j-1] = order[j-1], order[j]
		}
	}
	var rows []Row
	for _, k := range order {
		g := groups[k]
		source := k.solver
		if k.objective != RealTime {
			source += ", " + k.objective.String()
		}
		row := Row{Scenario: k.sc, Source: source, Objective: k.objective, Instances: len(g), NodesMin: nan, NodesMax: nan, TimeMin: nan, TimeMax: nan,
			NodesAvg: nan, TimeAvg: nan, UnitOfT: nan, LPBound: nan, RealTime: nan, Value: nan, LPGap: nan, MaxGap: nan}
		var nSettled, nRT, nLP, nGap int
		var sumN, sumT, sumLP, sumRT, sumValue, sumGap float64
		unitOpt, unitAny := math.NaN(), math.NaN()
		for _, r := range g {
			hasRT := !math.IsNaN(r.RealTime) && r.Verified
			if !r.Verified && !math.IsNaN(r.RealTime) {
				row.Unverified++
			}
			switch {
			case r.Status == solve.Infeasible:
				row.InFeas++
			case r.Status == solve.Optimal && r.Verified:
				row.Solved++
			case r.Status == solve.TimeLimit:
				row.TimLimit++
			}
			if hasRT && r.T > 0 {
				unitAny = nanMax(unitAny, r.RealTime/float64(r.T))
				if r.Status == solve.Optimal {
					unitOpt = nanMax(unitOpt, r.RealTime/float64(r.T))
				}
			}
			if hasRT {
				nRT++
				sumRT += r.RealTime
				sumValue += r.value()
			}
			if !math.IsNaN(r.LPBound) {
				nLP++
				sumLP += r.LPBound
				if hasRT {
					nGap++
					sumGap += (r.value() - r.LPBound) / math.Max(math.Abs(r.value()), 1e-9)
				}
			}
			if r.Status == solve.TimeLimit && !math.IsInf(r.Gap, 0) {
				row.MaxGap = nanMax(row.MaxGap, r.Gap)
			}
			if r.Status == solve.Infeasible || r.Status == solve.Optimal {
				nSettled++
				row.NodesMin, row.NodesMax = nanMin(row.NodesMin, float64(r.Nodes)), nanMax(row.NodesMax, float64(r.Nodes))
				row.TimeMin, row.TimeMax = nanMin(row.TimeMin, r.Seconds), nanMax(row.TimeMax, r.Seconds)
				sumN += float64(r.Nodes)
				sumT += r.Seconds
			}
		}
		if nSettled > 0 {
			row.NodesAvg, row.TimeAvg = sumN/float64(nSettled), sumT/float64(nSettled)
		}
		row.UnitOfT = unitOpt
		if math.IsNaN(unitOpt) && !math.IsNaN(unitAny) {
			row.UnitOfT, row.UnitFromIncumbents = unitAny, true
		}
		if nRT > 0 {
			row.RealTime, row.Value = sumRT/float64(nRT), sumValue/float64(nRT)
		}
		if nLP > 0 {
			row.LPBound = sumLP / float64(nLP)
		}
		if nGap > 0 {
			row.LPGap = sumGap / float64(nGap)
		}
		rows = append(rows, row)
	}
	return rows
}

func nanMin(a, b float64) float64 {
	if math.IsNaN(a) || b < a {
		return b
	}
	return a
}

func nanMax(a, b float64) float64 {
	if math.IsNaN(a) || b > a {
		return b
	}
	return a
}

// TableFormat is how WriteTable renders. Zero is unknown.
type TableFormat int8

const (
	FormatUnknown TableFormat = iota
	FormatText
	FormatCSV
	FormatMarkdown
)

// WriteTable renders rows with the paper's published row after each
// scenario's rows.
func WriteTable(w io.Writer, rows []Row, format TableFormat) error {
	tw := table.NewWriter()
	tw.AppendHeader(table.Row{"Sc", "source", "n", "#InFeas", "#Solved", "MemLimit", "TimLimit", "N_min", "N_avg", "N_max",
		"T_min (s)", "T_avg (s)", "T_max (s)", "unit of T (s)", "LP bound", "objective", "RealTime (s)", "LP gap", "max gap (limit)", "unverified"})
	// Ours: LP bound and RealTime are averages (RealTime of the best verified
	// schedule); "≤" marks a unit of T taken from non-optimal schedules.
	num := func(v float64, prec int) any {
		if math.IsNaN(v) {
			return "-"
		}
		return strconv.FormatFloat(v, 'f', prec, 64)
	}
	pct := func(v float64) any {
		if math.IsNaN(v) {
			return "-"
		}
		return fmt.Sprintf("%.1f%%", 100*v)
	}
	add := func(r Row) {
		unit := num(r.UnitOfT, 2)
		if r.UnitFromIncumbents {
			unit = fmt.Sprintf("≤%v", unit)
		}
		tw.AppendRow(table.Row{fmt.Sprintf("Sc%d", r.Scenario), r.Source, r.Instances, r.InFeas, r.Solved, r.MemLimit, r.TimLimit,
			num(r.NodesMin, 0), num(r.NodesAvg, 2), num(r.NodesMax, 0), num(r.TimeMin, 2), num(r.TimeAvg, 2), num(r.TimeMax, 2),
			unit, num(r.LPBound, 1), num(r.Value, 1), num(r.RealTime, 1), pct(r.LPGap), pct(r.MaxGap), r.Unverified})
	}
	for i, r := range rows {
		add(r)
		if i+1 == len(rows) || rows[i+1].Scenario != r.Scenario {
			if r.Scenario >= 1 && r.Scenario <= 7 {
				p := Table6[r.Scenario]
				p.Source = "paper (CPLEX 12.2)"
				add(p)
			}
		}
	}
	var s string
	switch format {
	case FormatCSV:
		s = tw.RenderCSV()
	case FormatMarkdown:
		s = tw.RenderMarkdown()
	default:
		s = tw.Render()
	}
	_, err := io.WriteString(w, s+"\n")
	return err
}
